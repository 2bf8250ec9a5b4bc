/**
 * One kind of step action, as `@Step` names it: the option that holds it, how both readers (the
 * decorators' metadata at run time, the AST at compile time) turn that option into the model's
 * action, and what the rules check of it. Each kind is one entry of `STEP_ACTIONS`; the engine runs
 * it through its own entry of `STEP_KINDS`.
 *
 * @example
 * ```ts
 * export const resourceAction: StepActionKind<ResourceAction> = {
 *   kind: 'resource',
 *   option: 'resource',
 *   literal: 'string',
 *   definition: { kind: 'resource', field: 'uriTemplate' },
 *   read: (uri) => ({ kind: 'resource', uri: uri as string }),
 *   uri: (action) => action.uri,
 * };
 * ```
 */
export interface StepActionKind<Action extends { readonly kind: string } = { readonly kind: string }> {
  /** The `kind` of the actions it reads. */
  readonly kind: Action['kind'];
  /** The `@Step` option that names the action. */
  readonly option: string;
  /** The literal the option holds when it names the action itself (the compile-time reader reads only this). */
  readonly literal: 'string' | 'number';
  /** A definition the option may hold instead (`defineTool`, `defineResource`): its `kind`, and the field that names the action. */
  readonly definition?: { readonly kind: string; readonly field: string };
  /** The action the option's value names: the literal, or the definition's field. */
  read(value: unknown): Action;
  /** The tool the action calls: the rules check that a server registers it and that it takes the step's arguments. */
  tool?(action: Action): string;
  /** The URI template the action reads: the rules check its syntax, that each variable is filled, and that a server serves it. */
  uri?(action: Action): string;
  /** Why the action's value is out of range, and how to fix it (reported as an invalid step option), if it is. */
  problem?(action: Action): { readonly problem: string; readonly fix: string } | undefined;
}
