import { closestName, listNames } from '@mcpflow/core';
import { RunWorkflowOptionError } from './run-workflow-option-error';

/** The option of `runWorkflow` a key was given in, what its keys name, and what else may know the name. */
const NAMED = {
  tools: { what: 'tool', elsewhere: ', nor of another workflow or a defineTool definition' },
  resources: { what: 'resource (URI template or URI)', elsewhere: ', nor of another workflow or a defineResource definition' },
  answers: { what: 'question', elsewhere: '' },
} as const;

/** Where the names a key could have meant come from. */
export interface RunKeyCandidates {
  /** The workflow's own names (and those of the workflows it calls), listed in the message. */
  readonly own: readonly string[];
  /** Names other workflows use or definitions declare in the process: tried when none of `own` is close. */
  readonly elsewhere?: Iterable<string>;
  /**
   * True when the closest name is one of the workflow's own that nothing else backs: named by string
   * in a step, with no stub and no definition. Either name may then be the typo, and the fix says so.
   */
  readonly unbacked?: (name: string) => boolean;
}

/**
 * A key of `runWorkflow`'s `tools`, `resources` or `answers` that names nothing known: no tool,
 * resource or question of the workflow (nor of the workflows it calls), and, for a stub, no tool or
 * resource another workflow in the process uses or a definition declares. Most often a typo, which
 * would let the real handler run, or leave the real question unanswered. Thrown before anything
 * runs; the message names the key, the closest name (the workflow's own first) and the workflow's
 * names. When that closest name is the workflow's own and nothing else backs it, it may be the
 * typo itself: the fix then gives both ways rather than copying a misspelling.
 *
 * @example
 * ```ts
 * await runWorkflow(GetPrice, { arguments: {}, tools: { get_prize: () => 3 } });
 * // UnknownRunKeyError: runWorkflow: tools['get_prize'] names no tool of workflow 'get_price', nor of … Did you mean 'get_price'? …
 * ```
 */
export class UnknownRunKeyError extends RunWorkflowOptionError {
  /** The closest known name, when one is close enough to be what was meant. */
  readonly suggestion?: string;

  constructor(
    readonly kind: keyof typeof NAMED,
    readonly key: string,
    workflow: string,
    candidates: RunKeyCandidates,
  ) {
    const { own } = candidates;
    const suggestion = closestName(key, own) ?? (candidates.elsewhere && closestName(key, candidates.elsewhere));
    const { what, elsewhere } = NAMED[kind];
    super(
      `${kind}['${key}']`,
      `names no ${what} of workflow '${workflow}'${elsewhere}.` +
        (suggestion === undefined ? '' : ` Did you mean '${suggestion}'?`) +
        ` Its ${kind === 'answers' ? 'question keys' : kind}: ${listNames(own)}.` +
        ` Fix: ${fixOf(kind, key, suggestion, candidates)} (nothing ran).`,
    );
    this.name = 'UnknownRunKeyError';
    if (suggestion !== undefined) this.suggestion = suggestion;
  }
}

function fixOf(kind: keyof typeof NAMED, key: string, suggestion: string | undefined, candidates: RunKeyCandidates): string {
  if (suggestion === undefined) return 'remove it, or name one of these';
  if (!candidates.unbacked?.(suggestion)) return `rename it to '${suggestion}'`;
  const field = kind === 'tools' ? 'tool' : 'resource';
  return (
    `nothing but the workflow names '${suggestion}', so either name may be the typo: rename the key to '${suggestion}', ` +
    `or, if '${key}' is the real name, write ${field}: '${key}' in the workflow's step in place of '${suggestion}'`
  );
}
