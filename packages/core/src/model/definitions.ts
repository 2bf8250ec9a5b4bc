import type { z } from 'zod';

/** A zod raw shape (`{ city: z.string() }`), as tools declare their input and output. */
export type ZodShape = z.ZodRawShape;

/** The arguments of a shape as a caller writes them (before transforms and defaults). */
export type ShapeInput<Shape extends ZodShape> = z.input<z.ZodObject<Shape>>;

/** The value of a shape after parsing: what a handler receives, what a tool returns as structured content. */
export type ShapeOutput<Shape extends ZodShape> = z.output<z.ZodObject<Shape>>;

/** One content block of a tool result (`{ type: 'text', text }`, an image, …), as the MCP spec defines it. */
export interface HandlerContent {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** What a tool handler returns; `structuredContent` follows the output schema when the tool has one. */
export interface ToolHandlerResult<Structured = Record<string, unknown>> {
  content: HandlerContent[];
  structuredContent?: Structured;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The structured result a tool with an output schema returns; any record when it has none. */
export type StructuredOf<Output extends ZodShape | undefined> = Output extends ZodShape ? ShapeOutput<Output> : Record<string, unknown>;

/**
 * A tool handler. `context` is the request context of the SDK line serving it, as that line's own
 * handlers get it: 1.x `extra` (its signal at `extra.signal`), 2.x `ctx` (at `ctx.mcpReq.signal`).
 */
export type ToolHandler<Input extends ZodShape, Output extends ZodShape | undefined> = (
  args: ShapeOutput<Input>,
  context: HandlerContext,
) => ToolHandlerResult<StructuredOf<Output>> | Promise<ToolHandlerResult<StructuredOf<Output>>>;

/** The SDK line's request context: 1.x `extra` or 2.x `ctx`, with where each keeps the request's signal. */
export interface HandlerContext {
  /** 1.x: the request's abort signal. */
  readonly signal?: AbortSignal;
  /** 2.x: the request, with its abort signal. */
  readonly mcpReq?: { readonly signal?: AbortSignal };
  readonly [key: string]: unknown;
}

/** The options of `defineTool`: the SDK's tool config, with zod raw shapes for input and output. */
/**
 * Who may call a tool or read a resource: `'public'` (the default) — clients list and call it;
 * `'workflow'` — only workflows, in process: clients neither list it nor call it (`tools/call` and
 * `resources/read` answer as for an unknown name). A step the user may decline is then not one an
 * agent can do anyway by calling its tool.
 */
export type Visibility = 'public' | 'workflow';

export interface ToolConfig<Input extends ZodShape, Output extends ZodShape | undefined> {
  title?: string;
  description?: string;
  inputSchema: Input;
  outputSchema?: Output;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  /** `'workflow'`: a private step tool, called by workflows only (see {@link Visibility}); default `'public'`. */
  visibility?: Visibility;
  /**
   * Whether a `tools/call` of this tool may run as an MCP task (SDK 2.x, DESIGN §2.13): `'optional'`
   * or `'required'`. Default: never a task. Registering such a definition on SDK 1.x throws.
   */
  task?: 'optional' | 'required';
}

/**
 * A tool, defined once with its schemas and handler, registrable on either SDK line. A step that
 * calls it by this object (`@Step({ tool: definition })`) has its `args` checked by the compiler.
 */
export interface ToolDefinition<
  Name extends string = string,
  Input extends ZodShape = ZodShape,
  Output extends ZodShape | undefined = ZodShape | undefined,
> {
  readonly kind: 'tool';
  readonly name: Name;
  readonly config: ToolConfig<Input, Output>;
  readonly handler: ToolHandler<Input, Output>;
  /**
   * Types only, never set: the arguments as a caller writes them and the structured result, where
   * the compiler (and the mcpflow transformer) read them, as zod's `_input`/`_output` do.
   */
  readonly '~types'?: { readonly input: ShapeInput<Input>; readonly output: StructuredOf<Output> };
}

/** Any tool definition, whatever its schemas. */
// `any`: the handler's parameter types vary with the schemas.
export type AnyToolDefinition = ToolDefinition<string, any, any>;

/** The variable names of an RFC 6570 URI template type: `'a://{x}/{+y}{?p,q}'` → `'x' | 'y' | 'p' | 'q'`. */
export type UriVariableNames<Template extends string> = Template extends `${string}{${infer Expression}}${infer Rest}`
  ? UriExpressionNames<Expression> | UriVariableNames<Rest>
  : never;

/** The variable names of one template expression, its operator dropped: `'?p,q'` → `'p' | 'q'`. */
export type UriExpressionNames<Expression extends string> = Expression extends `${'+' | '#' | '.' | '/' | ';' | '?' | '&'}${infer Body}`
  ? UriVariableListNames<Body>
  : UriVariableListNames<Expression>;

/** The variable names of an expression's comma-separated list: `'p,q*'` → `'p' | 'q'`. */
export type UriVariableListNames<List extends string> = List extends `${infer Head},${infer Tail}`
  ? UriVariableSpecName<Head> | UriVariableListNames<Tail>
  : UriVariableSpecName<List>;

/** A variable's name without its modifier: `'path*'` → `'path'`, `'id:3'` → `'id'`. */
export type UriVariableSpecName<Spec extends string> = Spec extends `${infer Name}*`
  ? Name
  : Spec extends `${infer Name}:${string}`
    ? Name
    : Spec;

/** The variables a resource template's handler receives (decoded); an exploded `{/path*}` may be a list. */
export type TemplateVariables<Template extends string> = { [Name in UriVariableNames<Template>]: string | string[] };

/** What a resource handler returns: its contents, text or base64 blob. */
export interface ResourceHandlerResult {
  contents: (
    | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
    | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> }
  )[];
  _meta?: Record<string, unknown>;
}

/** A resource handler: the URI read and, for a template, its variables. */
export type ResourceHandler<Template extends string> = (
  uri: URL,
  variables: TemplateVariables<Template>,
  context: HandlerContext,
) => ResourceHandlerResult | Promise<ResourceHandlerResult>;

/** The SDK's resource metadata: shown in `resources/list`. */
export interface ResourceMetadata {
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
  /** `'workflow'`: a private resource, read by workflows only (see {@link Visibility}); default `'public'`. */
  visibility?: Visibility;
}

/**
 * A resource or resource template, defined once and registrable on either SDK line. A step that
 * reads it by this object (`@Step({ resource: definition })`) has its `{variables}` checked
 * against its `@TemplateBinding`s by the compiler.
 */
export interface ResourceDefinition<Name extends string = string, Template extends string = string> {
  readonly kind: 'resource';
  readonly name: Name;
  /** A fixed URI, or an RFC 6570 template whose `{variables}` a step fills. */
  readonly uriTemplate: Template;
  readonly metadata: ResourceMetadata;
  readonly handler: ResourceHandler<Template>;
}

/** Any resource definition. */
// `any`: the handler's variables vary with the template.
export type AnyResourceDefinition = ResourceDefinition<string, any>;

/** A tool or resource definition, as `defineTool`/`defineResource` make them: what `registerDefinitions()` takes. */
export type AnyDefinition = AnyToolDefinition | AnyResourceDefinition;

/**
 * True for what `defineTool` returns.
 * @example `if (isToolDefinition(options.tool)) register(options.tool);`
 */
export function isToolDefinition(value: unknown): value is AnyToolDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'tool' &&
    typeof (value as { handler?: unknown }).handler === 'function'
  );
}

/**
 * True for what `defineResource` returns.
 * @example `if (isResourceDefinition(options.resource)) register(options.resource);`
 */
export function isResourceDefinition(value: unknown): value is AnyResourceDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'resource' &&
    typeof (value as { handler?: unknown }).handler === 'function'
  );
}
