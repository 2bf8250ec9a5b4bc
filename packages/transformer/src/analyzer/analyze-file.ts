import type * as ts from 'typescript';
import type { WorkflowDefinitionError } from '@mcpflow/core/rules';
import type { AnalyzedWorkflow } from './analyzed-workflow';
import { ClassReader } from './class-reader';

/** An error found while reading, already tied to its node. */
export interface NodeError {
  readonly error: WorkflowDefinitionError;
  readonly node: ts.Node;
}

/** What the analyzer found in one file. */
export interface FileAnalysis {
  readonly workflows: AnalyzedWorkflow[];
  readonly errors: NodeError[];
}

/** What the analyzer needs of the program around a file. */
export interface AnalyzerContext {
  readonly t: typeof ts;
  readonly checker: ts.TypeChecker;
  /** True when a class of the program extends this one: its steps then run as the subclass's. */
  readonly isExtended: (node: ts.ClassLikeDeclaration) => boolean;
}

/** Finds the mcpflow workflow classes of a file and reads each into the shared model. */
export function analyzeFile(context: AnalyzerContext, file: ts.SourceFile): FileAnalysis {
  const analysis: FileAnalysis = { workflows: [], errors: [] };
  if (!file.text.includes('@')) return analysis;
  const t = context.t;
  const reader = new ClassReader(context, analysis.errors);
  const visit = (node: ts.Node): void => {
    if (t.isClassDeclaration(node) || t.isClassExpression(node)) {
      const workflow = reader.read(node);
      if (workflow) analysis.workflows.push(workflow);
    }
    t.forEachChild(node, visit);
  };
  visit(file);
  return analysis;
}
