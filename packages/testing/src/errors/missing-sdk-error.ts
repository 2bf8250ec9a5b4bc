/**
 * The SDK line `runWorkflow` was asked to use is not installed: both lines are optional peer
 * dependencies of `@mcpflow/testing`, so a project installs the one it serves with.
 *
 * @example
 * ```ts
 * await runWorkflow(GetHint, { arguments: {}, sdk: 1 }); // MissingSdkError: … npm install -D @modelcontextprotocol/sdk
 * ```
 */
export class MissingSdkError extends Error {
  constructor(
    readonly packageName: string,
    sdk: 1 | 2,
    cause: unknown,
  ) {
    super(
      `runWorkflow with sdk: ${sdk} needs ${packageName}, which is not installed. ` +
        `Fix: npm install -D ${packageName}${sdk === 2 ? ' (SDK 2.x: @modelcontextprotocol/server and @modelcontextprotocol/client)' : ''}, ` +
        `or pass the sdk option of the line your project uses.`,
      { cause },
    );
    this.name = 'MissingSdkError';
  }
}
