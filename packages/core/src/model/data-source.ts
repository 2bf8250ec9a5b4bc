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

/** The value of a workflow argument, by its declared name: a string (a prompt's arguments are strings). */
export interface PromptArgSource extends ValueOf<string> {
  readonly kind: 'promptArg';
  readonly name: string;
}

/**
 * The value of a workflow argument of type `T`, as `promptArg<T>()` declares it: a workflow served
 * only as a tool may declare arguments of any type (its `tools/call` arguments are parsed by their
 * schemas); the transformer checks `T` against the argument's schema.
 */
export interface TypedPromptArgSource<T> extends ValueOf<T> {
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

/** A zod schema for an answer, seen only through what the engine needs of it. */
export interface AnswerSchemaLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

/** What the user is asked for (elicitation), and how the answer is checked. */
// `any`: an answer's type is known only at run time (its schema checks it there).
export interface AskUserSource extends ValueOf<any> {
  readonly kind: 'askUser';
  /** The question; `{argument}` placeholders name prompt arguments. */
  readonly message: string;
  /** The values the user picks from: a data source that gives an array. */
  readonly choices?: DataSource;
  /** The answer's schema: a zod schema of one value, or a `z.object` of flat fields for a form of several. */
  readonly schema?: AnswerSchemaLike;
  /** The form field's title. */
  readonly title?: string;
  /** How many times to ask when an answer fails its schema, before handing off. */
  readonly attempts?: number;
  /** The answer never appears in the trace. */
  readonly sensitive?: boolean;
}

/** What the client's model is asked (sampling), and how its answer is checked. */
// `any`: an answer's type is known only at run time (its schema checks it there).
export interface AskModelSource extends ValueOf<any> {
  readonly kind: 'askModel';
  /** The request; `{name}` placeholders name prompt arguments or `context` entries. */
  readonly prompt: string;
  /** Values shown to the model after the prompt, under their names. */
  readonly context?: Readonly<Record<string, DataSource>>;
  /** The answer's schema: the model's text, parsed as JSON when it parses, must fit it. */
  readonly schema?: AnswerSchemaLike;
  readonly systemPrompt?: string;
  readonly maxTokens?: number;
  /** How many times to ask when an answer fails its schema, before handing off. */
  readonly attempts?: number;
  /** The answer never appears in the trace. */
  readonly sensitive?: boolean;
}

/** A value the server asks the client for while the workflow runs. */
export type AskSource = AskUserSource | AskModelSource;

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
// `any` by default: a source whose type is not asked for fits anywhere. `TypedPromptArgSource<unknown>`
// (not `<any>`): intersected with `ValueOf<T>` it keeps `T`, so a string `promptArg()` still fails a number input.
export type DataSource<T = any> = (
  TypedPromptArgSource<unknown> | StepOutputSource | FieldSource | ConstantSource | ItemSource | AskSource
) &
  ValueOf<T>;

/** The binding a data source reads, if it reads one. */
export function bindingOf(source: DataSource): string | undefined {
  return source.kind === 'fromStep' || source.kind === 'field' ? source.binding : undefined;
}

/** Whether a data source asks the client for its value. */
export function isAskSource(source: DataSource): source is AskSource {
  return source.kind === 'askUser' || source.kind === 'askModel';
}

/** The data sources an ask reads to build its question, by the option that holds each: `choices`, `context.<name>`. */
export function askInputs(source: AskSource): [option: string, source: DataSource][] {
  if (source.kind === 'askUser') return source.choices ? [['choices', source.choices]] : [];
  return Object.entries(source.context ?? {}).map(([name, input]) => [`context.${name}`, input]);
}
