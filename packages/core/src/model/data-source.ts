/** A JSON value, as tool arguments and constants carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

declare const valueType: unique symbol;

/**
 * The type of value a data source produces, seen only by the compiler (never set at run time):
 * it lets TypeScript itself check `promptArg()` and `constant()` against a tool's input types.
 */
export interface ValueOf<T> {
  readonly [valueType]?: T;
}

/** The value of a prompt argument, by its declared name: always a string. */
export interface PromptArgSource extends ValueOf<string> {
  readonly kind: 'promptArg';
  readonly name: string;
}

/**
 * The whole output of an earlier step, by the name it was bound under. Its type is the `@Bind`
 * property's, which only the transformer sees, so it fits any input here and is checked there.
 */
// `any`: assignable to every input type; the transformer checks the real type.
export interface StepOutputSource extends ValueOf<any> {
  readonly kind: 'fromStep';
  readonly binding: string;
}

/** One value inside an earlier step's output, by a dot path (`'a.b.0.c'`); typed like `StepOutputSource`. */
// `any`: assignable to every input type; the transformer checks the real type.
export interface FieldSource extends ValueOf<any> {
  readonly kind: 'field';
  readonly binding: string;
  readonly path: string;
}

/** A fixed JSON value, typed as written (`constant(3)` is a `number`). */
export interface ConstantSource<Value extends JsonValue = JsonValue> extends ValueOf<Value> {
  readonly kind: 'constant';
  readonly value: Value;
}

/** The current element of a `forEach` step, or one value inside it by a dot path; typed like `StepOutputSource`. */
// `any`: assignable to every input type; the transformer checks the real type.
export interface ItemSource extends ValueOf<any> {
  readonly kind: 'item';
  readonly path?: string;
}

/**
 * Where a step argument or a URI template variable takes its value from. `DataSource<number>` is
 * a source whose value fits a `number` input.
 */
// `any` by default: a source whose type is not asked for fits anywhere.
export type DataSource<T = any> = (PromptArgSource | StepOutputSource | FieldSource | ConstantSource | ItemSource) & ValueOf<T>;

/** The binding a data source reads, if it reads one. */
export function bindingOf(source: DataSource): string | undefined {
  return source.kind === 'fromStep' || source.kind === 'field' ? source.binding : undefined;
}
