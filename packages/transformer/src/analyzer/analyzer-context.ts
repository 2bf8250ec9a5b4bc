import type * as ts from 'typescript';
import type { WorkflowDefinitionError } from '@mcpflow/core/rules';
import type { ProjectLock } from '../lock/project-lock';
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
  /**
   * What the lock check needs of the program (read once, on first use): its `mcpflow.lock.json`, if
   * any, and whether a class is one of some workflow's `previous` (checked as itself, never against
   * the lock or for a duplicate name). Absent where no program is around the file.
   */
  readonly versions?: () => ProgramVersions;
}

/** The program's lock and the classes its workflows keep as earlier versions. */
export interface ProgramVersions {
  readonly lock?: ProjectLock;
  readonly isPrevious: (node: ts.ClassLikeDeclaration) => boolean;
}
