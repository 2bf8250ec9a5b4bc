import type * as ts from 'typescript';
import type { WorkflowDefinitionError } from '@mcpflow/core/rules';
import type { ProgramTools } from './program-tools';

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
  /**
   * The tool names the program shows being defined or registered, workflow tool faces included
   * (read once, on first use); absent where no program is around the file.
   */
  readonly tools?: () => ProgramTools;
}
