import type {
  ConstantSource,
  FieldSource,
  ItemSource,
  JsonValue,
  PromptArgSource,
  StepOutputSource,
  TypedPromptArgSource,
} from '@mcpflow/core/model';

/**
 * The value of a declared workflow argument: a string, as a prompt's arguments are. A workflow
 * served only as a tool (`expose: { prompt: false, tool: true }`) may declare arguments of any
 * type: name the type to pass the value on typed, `promptArg<number>('quantity')` for
 * `arguments: { quantity: z.number() }` (the mcpflow transformer checks it is what the argument's
 * schema gives; TypeScript checks it against the tool's input).
 * @example `args: { player: promptArg('player') }`
 */
export function promptArg(name: string): PromptArgSource;
/** A typed workflow argument of a workflow served only as a tool: `promptArg<number>('quantity')`. */
export function promptArg<T>(name: string): TypedPromptArgSource<NoInfer<T>>;
export function promptArg(name: string): PromptArgSource {
  return { kind: 'promptArg', name };
}

/**
 * The whole output of an earlier step, by its `@Bind` name (not its step name).
 * @example `args: { analysis: fromStep('analysis_result') }`
 */
export function fromStep(binding: string): StepOutputSource {
  return { kind: 'fromStep', binding };
}

/**
 * One value inside an earlier step's output: a dot path whose numeric segments index arrays.
 * @example `field('review', 'recommendations.0.text')`
 */
export function field(binding: string, path: string): FieldSource {
  return { kind: 'field', binding, path };
}

/**
 * A fixed JSON value, typed as written: TypeScript checks it against a tool definition's input.
 * @example `args: { format: constant('markdown'), focus: constant(['security']) }`
 */
export function constant<const Value extends JsonValue>(value: Value): ConstantSource<Value> {
  return { kind: 'constant', value };
}

/**
 * The current element of a `forEach` step, or one value inside it by a dot path. Usable in `args`,
 * `@TemplateBinding` and `when`; guidance reads it as `{item}` / `{item.a.b}`.
 * @example `@Step({ tool: 'get_issue', forEach: fromStep('issues'), args: { number: item('number') } })`
 */
export function item(path?: string): ItemSource {
  return path === undefined ? { kind: 'item' } : { kind: 'item', path };
}
