import { knownNames, type WorkflowClass } from '@mcpflow/core';
import { UnknownRunKeyError } from '../errors/unknown-run-key-error';
import type { RunWorkflowOptions } from '../run-options';
import { workflowUses } from './workflow-uses';

/**
 * Refuses, before anything runs, a stub or an answer keyed by a name known nowhere: a `tools` key
 * that is no tool of the workflow's steps (or of the workflows it calls), of another workflow's
 * steps in the process, nor of a `defineTool` definition; a `resources` key likewise for URI
 * templates and URIs; an `answers` key that is no question the workflow puts. So one stub map
 * shared by the workflows of a test file is accepted, while a typo never lets a real handler run,
 * or a real question go unanswered. Call it once the class is known to be well wired (`use()`
 * passed): a broken class is reported by its own error first.
 *
 * @example
 * ```ts
 * checkRunKeys(GetHint, { arguments: {}, tools: { write_hnt: () => '' } }); // UnknownRunKeyError: … Did you mean 'write_hint'?
 * ```
 */
export function checkRunKeys(target: WorkflowClass, options: Pick<RunWorkflowOptions, 'tools' | 'resources' | 'answers'>): void {
  const uses = workflowUses(target);
  if (!uses) return;
  for (const kind of ['tools', 'resources'] as const) {
    const given = options[kind] ?? {};
    const elsewhere = new Set([...knownNames('used', kind), ...knownNames('defined', kind)]);
    // One of the workflow's own names that only a step names by string, with no stub: it may be the typo.
    const unbacked = (name: string) =>
      uses[kind].has(name) && !Object.hasOwn(given, name) && !uses.byDefinition.has(name) && !knownNames('defined', kind).has(name);
    for (const key of Object.keys(given))
      if (!uses[kind].has(key) && !elsewhere.has(key))
        throw new UnknownRunKeyError(kind, key, uses.workflow, { own: [...uses[kind]], elsewhere, unbacked });
  }
  for (const key of Object.keys(options.answers ?? {}))
    if (!uses.questions.has(key)) throw new UnknownRunKeyError('answers', key, uses.workflow, { own: [...uses.questions] });
}
