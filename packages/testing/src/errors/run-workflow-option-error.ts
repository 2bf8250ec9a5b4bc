/**
 * An option of `runWorkflow` that cannot be run: an unknown SDK line or protocol, or a protocol
 * the chosen line does not speak. Thrown before anything runs.
 *
 * @example
 * ```ts
 * await runWorkflow(GetHint, { arguments: {}, sdk: 1, protocol: '2026-07-28' }); // RunWorkflowOptionError
 * ```
 */
export class RunWorkflowOptionError extends Error {
  constructor(
    readonly option: string,
    problem: string,
  ) {
    super(`runWorkflow: ${option} ${problem}`);
    this.name = 'RunWorkflowOptionError';
  }
}
