/** A JSON value, as tool arguments and constants carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The value of a prompt argument, by its declared name. */
export interface PromptArgSource {
  readonly kind: 'promptArg';
  readonly name: string;
}

/** The whole output of an earlier step, by the name it was bound under. */
export interface StepOutputSource {
  readonly kind: 'fromStep';
  readonly binding: string;
}

/** One value inside an earlier step's output, by a dot path (`'a.b.0.c'`). */
export interface FieldSource {
  readonly kind: 'field';
  readonly binding: string;
  readonly path: string;
}

/** A fixed JSON value. */
export interface ConstantSource {
  readonly kind: 'constant';
  readonly value: JsonValue;
}

/** The current element of a `forEach` step, or one value inside it by a dot path. */
export interface ItemSource {
  readonly kind: 'item';
  readonly path?: string;
}

/** Where a step argument or a URI template variable takes its value from. */
export type DataSource = PromptArgSource | StepOutputSource | FieldSource | ConstantSource | ItemSource;

/** The binding a data source reads, if it reads one. */
export function bindingOf(source: DataSource): string | undefined {
  return source.kind === 'fromStep' || source.kind === 'field' ? source.binding : undefined;
}
