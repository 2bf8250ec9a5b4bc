/**
 * The metadata records `@mcpflow/decorators` writes and `@mcpflow/core` reads.
 * Keys come from the global symbol registry, so two copies of the packages still agree.
 */
import type { Condition } from './condition';
import type { DataSource } from './data-source';
import type { AnyResourceDefinition } from './definitions';
import type { ExposeOptions } from './expose';
import type { StepActionOptions } from './step-actions';
import type { RetryPolicy } from './workflow-model';

export const WORKFLOW_METADATA = Symbol.for('mcpflow:workflow');
export const STEPS_METADATA = Symbol.for('mcpflow:steps');
export const BINDINGS_METADATA = Symbol.for('mcpflow:bindings');
export const TEMPLATE_BINDINGS_METADATA = Symbol.for('mcpflow:template-bindings');

/** A zod schema, seen only through what the model needs of it. */
export interface ArgumentSchemaLike {
  safeParse(value: unknown): { success: boolean };
  readonly description?: string;
}

/** The options of `@Workflow`. */
export interface WorkflowOptions {
  /** The MCP prompt name. */
  name: string;
  /** Shown in `prompts/list` and used as the user's intent in the trace. */
  description?: string;
  title?: string;
  /** A zod raw shape of string schemas, as the SDK's `argsSchema`. */
  arguments?: Record<string, ArgumentSchemaLike>;
  /** Texts for the LLM, emitted at the start of the trace. */
  instructions?: string[];
  /**
   * Resource URIs embedded right after the instructions: reusable instruction resources (a style
   * guide, a glossary), each a URI or a fixed-URI `defineResource` definition (registered by
   * `use()`). Checked at `connect()` like a step's resources; they take no `{vars}`.
   */
  resources?: (string | AnyResourceDefinition)[];
  /** Prompt arguments whose values never appear in the trace (`[redacted]`). */
  sensitiveArguments?: string[];
  /**
   * The faces the workflow is served under: `{ prompt?: boolean = true, tool?: boolean | { name?,
   * title? } = false, skill?: boolean | { name? } = false }` (see `ExposeOptions`).
   */
  expose?: ExposeOptions;
  /** What this version is called, for people; never compared (only the steps passed decide what a state resumes on). */
  version?: string;
  /**
   * Classes of earlier versions of this workflow (the same `name`), kept so that runs paused on them
   * still resume after a change that is not compatible (DESIGN §2.16, docs/deploying.md). They are
   * never listed and never start a run: one only resumes a state whose passed steps it matches.
   */
  previous?: (abstract new (...args: never[]) => unknown)[];
}

/** The options every step takes, whatever its action. */
export interface StepOptionsBase {
  /** The step's name; defaults to the property name. */
  name?: string;
  /** Tool argument → where its value comes from. */
  args?: Record<string, DataSource>;
  /** URIs embedded for the LLM before the step runs; may hold `{vars}`. */
  resources?: string[];
  /** Assistant text before the step; `{argument}` placeholders, `{{`/`}}` for braces. */
  guidance?: string;
  /** Give up on the step after this many milliseconds (per try). */
  timeoutMs?: number;
  /** Try the step again after a tool error or a throw. */
  retry?: RetryPolicy;
  /** Tool arguments whose values never appear in the trace (`[redacted]`). */
  sensitiveArgs?: string[];
  /** Run concurrently with the adjacent steps that are also `parallel` (they form one group). */
  parallel?: boolean;
  /** Run only when this holds; otherwise the step is `skipped` with the reason. See `equals`, `oneOf`, `present`, `not`. */
  when?: Condition;
  /** Run once per element of this array; `item()` reads the element, the binding is the array of results. */
  forEach?: DataSource;
  /** With `forEach`: how many iterations may run at once (default 1). */
  concurrency?: number;
  /** With `forEach`: the most elements the step accepts (default 100); a longer array fails the step. */
  maxItems?: number;
  /** A failure of this step is recorded and the workflow goes on without its binding. */
  optional?: boolean;
  /**
   * Maps the step's value before it is bound (once per element with `forEach`). The compiler checks
   * the parameter against the tool's output type and the return against the `@Bind` property's type.
   */
  // `any`: an author's transform declares its own parameter type, which the transformer checks.

  transform?: (value: any) => unknown;
}

/**
 * The options of `@Step` as recorded: its action (a `tool` to call, a `resource` to read, each by
 * name or URI or by definition) and the options every step takes. `@mcpflow/decorators` types them
 * more precisely, per tool.
 */
export type StepOptions = StepOptionsBase & StepActionOptions;

/** What `@Step` records: the property and its options, in declaration order. */
export interface StepRecord {
  readonly property: string;
  readonly options: StepOptions;
}

/** What `@TemplateBinding` records for one property: the URI variable it fills, and from where. */
export interface TemplateBindingRecord {
  readonly variable: string;
  readonly source: DataSource;
}
