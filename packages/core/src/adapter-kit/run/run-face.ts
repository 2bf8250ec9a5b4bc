/**
 * Which face of a workflow a request came through, as its run span names it (DESIGN §2.11):
 * `prompts/get {workflow}` for the prompt face, `tools/call {tool}` for the tool face, with the
 * name the client used.
 *
 * @example
 * ```ts
 * runner.run(plan, asks, args, context, { method: 'tools/call', name: 'get_hint' });
 * ```
 */
export interface RunFace {
  readonly method: 'prompts/get' | 'tools/call';
  /** The prompt's or the tool's name, as the client asked for it. */
  readonly name: string;
}
