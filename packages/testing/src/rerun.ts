import type { Answer, ResourceStub, ToolStub, WorkflowRun } from './run-options';
import { RunWorkflowOptionError } from './errors/run-workflow-option-error';
import { recordedRun } from './recorded-runs';
import { executeRun } from './run-workflow';

/** How `rerun` runs a recorded run again. */
export interface RerunOptions {
  /**
   * The step to rerun from (its name): the steps before it are not run — their outputs are the
   * ones the server recorded in the first run — and that step and the later ones run again. Absent:
   * every step runs again.
   */
  from?: string;
  /** New arguments, for a rerun from the start only (the earlier steps' outputs came from the recorded ones). Absent: the recorded ones. */
  arguments?: Record<string, string>;
  /** Stubs that replace the run's own, by tool name (the tool fixed since the run failed, say); the others stay. */
  tools?: Record<string, ToolStub>;
  /** Stub resources that replace the run's own, by URI template. */
  resources?: Record<string, ResourceStub>;
  /** Answers that replace the run's own, by question key: a rerun asks its steps' questions again. */
  answers?: Record<string, Answer>;
}

/**
 * Runs a run that `runWorkflow` returned again, as `mcpflow/rerun` does on a server in dev mode
 * (DESIGN §2.15; `runWorkflow` serves with `dev: true`): on the same SDK line, protocol and face,
 * with the same stubs and answers unless `options` replaces some. With `from`, the steps before
 * that step are not run — their tools are not called, their outputs are those recorded in `run` —
 * and that step and the later ones are. Resolves to the rerun's own `WorkflowRun` (its `calls` are
 * the rerun's only), which can be rerun in turn. Rejects with the server's `-32602` error naming a
 * step the workflow does not have, or one the run never reached; with `RunWorkflowOptionError` for
 * a run that was not recorded (run as a task, or with `serverOptions.dev: false`), or `arguments`
 * with `from`. A rerun asks in place only: on protocol 2026-07-28 a question of a step that runs
 * again hands off (rerun from a later step, or on `protocol: '2025-11-25'`).
 *
 * @example
 * ```ts
 * const first = await runWorkflow(Release, { arguments: { repo: 'app' }, tools: { fetch, build: brokenBuild, publish } });
 * assert.equal(first.status, 'failed');
 * const fixed = await rerun(first, { from: 'build', tools: { build } });
 * assert.deepEqual(fixed.calls.map((call) => call.tool), ['build', 'publish']); // fetch did not run again
 * ```
 */
export async function rerun(run: WorkflowRun, options: RerunOptions = {}): Promise<WorkflowRun> {
  const recorded = recordedRun(run);
  if (!recorded) throw new RunWorkflowOptionError('run', 'is not a run that runWorkflow (or rerun) returned: pass the result itself.');
  if (recorded.runId === undefined)
    throw new RunWorkflowOptionError(
      'run',
      `was not recorded by its server, so it cannot be rerun: ${recorded.options.task ? 'a run as an MCP task is not recorded' : 'it ran with serverOptions.dev: false'}.`,
    );
  const { from, arguments: args } = options;
  if (from !== undefined && typeof from !== 'string')
    throw new RunWorkflowOptionError('from', `is a step's name, not ${JSON.stringify(from)}`);
  if (from !== undefined && args !== undefined)
    throw new RunWorkflowOptionError(
      'arguments',
      `cannot change in a rerun from step '${from}': the earlier steps' outputs came from the recorded ones. Rerun from the start (no from) with new arguments.`,
    );
  const given = recorded.options;
  const again = {
    ...given,
    tools: { ...given.tools, ...options.tools },
    resources: { ...given.resources, ...options.resources },
    answers: { ...given.answers, ...options.answers },
    ...(args !== undefined && { arguments: args }),
  };
  return executeRun(recorded.target, again, {
    runId: recorded.runId,
    ...(from !== undefined && { fromStep: from }),
    ...(args !== undefined && { arguments: args }),
  });
}
