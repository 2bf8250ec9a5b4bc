import type { WorkflowClass } from '@mcpflow/core';
import { UnknownRunKeyError } from '../errors/unknown-run-key-error';
import type { RunWorkflowOptions } from '../run-options';
import { workflowUses } from './workflow-uses';

/**
 * Refuses, before anything runs, a stub or an answer keyed by a name the workflow does not use: a
 * `tools` key that is no tool of its steps (or of the workflows it calls), a `resources` key that
 * is no URI template or URI they read, an `answers` key that is no question they put. A typo must
 * never let a real handler run, or a real question go unanswered.
 *
 * @example
 * ```ts
 * checkRunKeys(GetHint, { arguments: {}, tools: { write_hnt: () => '' } }); // UnknownRunKeyError: … Did you mean 'write_hint'?
 * ```
 */
export function checkRunKeys(target: WorkflowClass, options: Pick<RunWorkflowOptions, 'tools' | 'resources' | 'answers'>): void {
  const uses = workflowUses(target);
  if (!uses) return;
  const given = { tools: options.tools, resources: options.resources, answers: options.answers };
  const known = { tools: uses.tools, resources: uses.resources, answers: uses.questions };
  for (const kind of ['tools', 'resources', 'answers'] as const)
    for (const key of Object.keys(given[kind] ?? {}))
      if (!known[kind].has(key)) throw new UnknownRunKeyError(kind, key, uses.workflow, [...known[kind]]);
}
