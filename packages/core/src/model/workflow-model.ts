import type { Condition } from './condition';
import type { DataSource } from './data-source';
import type { ExposeOptions } from './expose';
import type { StepAction } from './step-actions';

/** A declared prompt argument. */
export interface ArgumentModel {
  readonly name: string;
  /** Whether a value must be given; absent where the compiler cannot tell from the schema's type. */
  readonly required?: boolean;
  readonly description?: string;
  /** Marked sensitive: its value never appears in the trace. */
  readonly sensitive?: boolean;
}

/** One tool argument and where its value comes from. */
export interface ArgumentMapping {
  readonly name: string;
  readonly source: DataSource;
}

/** One URI template variable and where its value comes from: what a `@TemplateBinding` fills it with. */
export interface UriVariableFill {
  readonly variable: string;
  readonly source: DataSource;
}

/** @deprecated Use `UriVariableFill`: a `@TemplateBinding` fills a URI variable (a binding is a `@Bind` name). */
export type TemplateBindingModel = UriVariableFill;

/** How often a step is tried again after a tool error or a throw. */
export interface RetryPolicy {
  /** Total tries, the first included (at least 1). */
  readonly attempts: number;
  /** Wait before the second try, in ms; doubled before each later one. */
  readonly backoffMs?: number;
}

/** One step, in the order it runs. */
export interface StepModel {
  /** The step's name: the `name` option, else the property name. */
  readonly name: string;
  /** The decorated property. */
  readonly property: string;
  /** What the step does: call a tool, read a resource (absent when `@Step` names no action). */
  readonly action?: StepAction;
  /** Further actions the same `@Step` names (always an error: a step does exactly one thing). */
  readonly extraActions: readonly StepAction[];
  readonly args: readonly ArgumentMapping[];
  /** URIs embedded for the LLM (may hold `{vars}`). */
  readonly resources: readonly string[];
  readonly guidance?: string;
  /** The name later steps read this step's output by, if it is bound. */
  readonly binding?: string;
  /** Further `@Bind` names on the same property (always an error). */
  readonly extraBindings: readonly string[];
  /** The URI variables `@TemplateBinding` fills, for its action's URI and its `resources`. */
  readonly fills: readonly UriVariableFill[];
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  /** Tool arguments whose values never appear in the trace. */
  readonly sensitiveArgs: readonly string[];
  /** Runs concurrently with the adjacent `parallel` steps (see `parallelGroups`). */
  readonly parallel: boolean;
  /** The step runs only when this holds. */
  readonly when?: Condition;
  /** The array the step runs once per element of. */
  readonly forEach?: DataSource;
  /** With `forEach`: iterations that may run at once. */
  readonly concurrency?: number;
  /** With `forEach`: the most elements accepted. */
  readonly maxItems?: number;
  /** A failure is recorded and the workflow goes on. */
  readonly optional: boolean;
  /** Maps the value before it is bound; only the run-time reader has the function. */
  readonly transform?: StepTransform;
}

/** A step's `transform`: maps its value before it is bound. */
export type StepTransform = (value: unknown) => unknown;

/** A decorator that needs `@Step` on the same property but found none. */
export interface StrayDecorator {
  readonly property: string;
  readonly decorator: 'Bind' | 'TemplateBinding';
}

/** A workflow prompt: the plain record both the runtime and the compiler check. */
export interface WorkflowModel {
  /** The prompt name. */
  readonly name: string;
  /** The class it was declared on, for messages. */
  readonly className: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly ArgumentModel[];
  /** Texts for the LLM; absent where the compiler cannot read them as literals. */
  readonly instructions?: readonly string[];
  /** Instruction resource URIs, embedded after the instructions. */
  readonly resources: readonly string[];
  readonly steps: readonly StepModel[];
  readonly strayDecorators: readonly StrayDecorator[];
  /** The faces it is served under, as declared (the rules check it; `workflowFaces` applies the defaults). */
  readonly expose?: ExposeOptions;
  /** The `version` option, as declared. */
  readonly version?: string;
  /** The classes of `previous`, each read as a workflow (`model` absent for a class without `@Workflow`). */
  readonly previous?: readonly PreviousVersion[];
}

/** A class named in `@Workflow({ previous })`: an earlier version of the workflow, kept to resume runs paused on it. */
export interface PreviousVersion {
  readonly className: string;
  readonly model?: WorkflowModel;
}
