import type * as ts from 'typescript';
import type { AnalyzedWorkflow } from './analyzed-workflow';
import type { AnalyzerContext, NodeError } from './analyzer-context';
import { ClassReader } from './class-reader';

/** What the analyzer found in one file. */
export interface FileAnalysis {
  readonly workflows: AnalyzedWorkflow[];
  readonly errors: NodeError[];
}

/** Finds the mcpflow workflow classes of a file and reads each into the shared model. */
export function analyzeFile(context: AnalyzerContext, file: ts.SourceFile): FileAnalysis {
  const analysis: FileAnalysis = { workflows: [], errors: [] };
  if (!file.text.includes('@')) return analysis;
  const t = context.t;
  const reader = new ClassReader(context, analysis.errors);
  const mayHoldDecorators = decoratedRanges(file.text);
  const visit = (node: ts.Node): void => {
    if (!mayHoldDecorators(node)) return;
    if (t.isClassDeclaration(node) || t.isClassExpression(node)) {
      const workflow = reader.read(node);
      if (workflow) analysis.workflows.push(workflow);
    }
    t.forEachChild(node, visit);
  };
  visit(file);
  return analysis;
}

/**
 * Whether a node's text holds an '@': a class with no decorator, and no decorated class inside it,
 * has nothing to read (a workflow class carries its own @Workflow; base classes are read through
 * it), so the walk skips such subtrees (type literals, imports, options objects: most of a workflow
 * file). The '@' positions are sorted, so one binary search a node.
 */
function decoratedRanges(text: string): (node: ts.Node) => boolean {
  const positions: number[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) positions.push(at);
  return (node) => {
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (positions[middle] < node.pos) low = middle + 1;
      else high = middle;
    }
    return low < positions.length && positions[low] < node.end;
  };
}
