import type * as ts from 'typescript';
import type { WorkflowDefinitionError } from '@mcpflow/core/rules';

/** An error found while reading, already tied to its node. */
export interface NodeError {
  readonly error: WorkflowDefinitionError;
  readonly node: ts.Node;
}

/** What the analyzer needs of the program around a file. */
export interface AnalyzerContext {
  readonly t: typeof ts;
  readonly checker: ts.TypeChecker;
  /** True when a class of the program extends this one: its steps then run as the subclass's. */
  readonly isExtended: (node: ts.ClassLikeDeclaration) => boolean;
}
