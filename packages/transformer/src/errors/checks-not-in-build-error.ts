import { ErrorCodes, WorkflowDefinitionError } from '@mcpflow/core/rules';

/**
 * The project's build does not run mcpflow's transformer, so a broken workflow would build
 * without a word. Shown as a warning on each `@Workflow` by the editor plugin and as a note by
 * `mcpflow validate`; never an error of the build itself (plain `tsc` must still build).
 */
export class ChecksNotInBuildError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ChecksNotInBuild;
  constructor(workflow: string, reason: string, fix: string) {
    super({
      workflow,
      target: { kind: 'workflowName' },
      problem: `mcpflow's checks are not part of this project's build: ${reason}, so building would not report a broken workflow (the editor plugin and \`mcpflow validate\` still do).`,
      fix,
    });
  }
}
