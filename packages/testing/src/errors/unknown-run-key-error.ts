import { closestName, listNames } from '@mcpflow/core';
import { RunWorkflowOptionError } from './run-workflow-option-error';

/** The option of `runWorkflow` a key was given in, and what its keys name. */
const NAMED = {
  tools: 'tool',
  resources: 'resource (URI template or URI)',
  answers: 'question',
} as const;

/**
 * A key of `runWorkflow`'s `tools`, `resources` or `answers` that names no tool, resource or
 * question of the workflow (nor of the workflows it calls): most often a typo, which would let the
 * real handler run, or leave the real question unanswered. Thrown before anything runs; the
 * message names the key, the closest real name and every real one.
 *
 * @example
 * ```ts
 * await runWorkflow(GetPrice, { arguments: {}, tools: { get_prize: () => 3 } });
 * // UnknownRunKeyError: runWorkflow: tools['get_prize'] names no tool of workflow 'get_price'. Did you mean 'get_price'? …
 * ```
 */
export class UnknownRunKeyError extends RunWorkflowOptionError {
  /** The closest real name, when one is close enough to be what was meant. */
  readonly suggestion?: string;

  constructor(
    readonly kind: keyof typeof NAMED,
    readonly key: string,
    workflow: string,
    known: readonly string[],
  ) {
    const suggestion = closestName(key, known);
    super(
      `${kind}['${key}']`,
      `names no ${NAMED[kind]} of workflow '${workflow}'.` +
        (suggestion === undefined ? '' : ` Did you mean '${suggestion}'?`) +
        ` Its ${kind === 'answers' ? 'question keys' : kind}: ${listNames(known)}.` +
        ` Fix: ${suggestion === undefined ? 'remove it, or name one of these' : `rename it to '${suggestion}'`} (nothing ran).`,
    );
    this.name = 'UnknownRunKeyError';
    if (suggestion !== undefined) this.suggestion = suggestion;
  }
}
