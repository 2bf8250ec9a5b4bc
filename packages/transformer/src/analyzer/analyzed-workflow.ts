import type * as ts from 'typescript';
import type { DataSource, WorkflowModel } from '@mcpflow/core/model';
import type { ToolDefinitionType } from './definition-types';

/** A data source call and its literal arguments. */
export interface SourceNodes {
  readonly call: ts.Node;
  /** The first argument: the binding or argument name (or the constant). */
  readonly first?: ts.Expression;
  /** The second argument: the field path. */
  readonly second?: ts.Expression;
  readonly source: DataSource;
  /** An ask's options, by name. */
  readonly options?: ReadonlyMap<string, ts.Expression>;
  /** The sources an ask reads, by option: `choices`, `context.<name>`. */
  readonly nested?: ReadonlyMap<string, SourceNodes>;
}

/** Where each part of a step is written. */
export interface StepNodes {
  readonly property: ts.PropertyDeclaration;
  readonly decorator: ts.Node;
  readonly options: ReadonlyMap<string, ts.Expression>;
  /** The option naming the step's action (`tool`, `resource`, …), when it names one. */
  readonly action?: ts.Expression;
  readonly embedded: readonly ts.Expression[];
  readonly args: ReadonlyMap<string, SourceNodes>;
  readonly bindings: ReadonlyMap<string, ts.Expression>;
  readonly templates: ReadonlyMap<string, { readonly variable: ts.Expression; readonly source: SourceNodes }>;
  /** The tool definition the step calls, when it calls one by object rather than by name. */
  readonly tool?: ToolDefinitionType;
  /** The workflow class the step calls through `workflowTool(Class)`. */
  readonly calledWorkflow?: ts.ClassLikeDeclaration;
  /** The data sources of `when`, depth first (the order of `conditionSources`). */
  readonly conditionSources: readonly SourceNodes[];
  readonly forEach?: SourceNodes;
  /** The `transform` function expression. */
  readonly transform?: ts.Expression;
}

/** A workflow class read into the model, with the nodes its diagnostics point at. */
export interface AnalyzedWorkflow {
  readonly model: WorkflowModel;
  /** The class read. */
  readonly declaration: ts.ClassLikeDeclaration;
  /** The classes of `@Workflow({ previous })`, as written (each also read as a workflow of its own, where it is declared). */
  readonly previousClasses: readonly ts.ClassLikeDeclaration[];
  readonly nameNode: ts.Node;
  /** The `@Workflow` decorator. */
  readonly decorator: ts.Node;
  /** By step name (the first step of a name, when names repeat). */
  readonly steps: ReadonlyMap<string, StepNodes>;
  readonly strays: ReadonlyMap<string, ts.Node>;
  /** The options of `@Workflow({ expose })` by path (`''` for `expose` itself, `tool`, `tool.name`, …). */
  readonly exposeNodes: ReadonlyMap<string, ts.Node>;
  /** The literals of `@Workflow({ resources })`, by index. */
  readonly resources: readonly ts.Expression[];
  /** False when a name could not be read as a literal: the rules are then not run, to avoid false errors. */
  readonly complete: boolean;
}
