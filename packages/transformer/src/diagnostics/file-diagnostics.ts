import type * as ts from 'typescript';
import { checkWorkflowNames, validateWorkflow, type WorkflowDefinitionError } from '@mcpflow/core/rules';
import { analyzeFile } from '../analyzer/analyze-file';
import type { AnalyzedWorkflow } from '../analyzer/analyzed-workflow';
import { checkTypes } from '../analyzer/type-checks';
import { locate, type Span } from './locate';

/** The source of every mcpflow diagnostic, as tsc prints nothing for it but editors may show it. */
export const DIAGNOSTIC_SOURCE = 'mcpflow';

/**
 * The mcpflow diagnostics of one file: the shared rules of `@mcpflow/core` run on the model read
 * from the AST, plus the checks that need types. A bug in the analyzer is rethrown, never hidden;
 * an error in the user's code is always a diagnostic.
 */
export function fileDiagnostics(t: typeof ts, checker: ts.TypeChecker, file: ts.SourceFile): ts.Diagnostic[] {
  const analysis = analyzeFile(t, checker, file);
  const diagnostics = analysis.errors.map(({ error, node }) => diagnostic(t, file, error, { start: node.getStart(), length: node.getWidth() }));
  const named: AnalyzedWorkflow[] = [];
  for (const workflow of analysis.workflows) {
    if (workflow.complete) {
      for (const error of validateWorkflow(workflow.model)) diagnostics.push(diagnostic(t, file, error, locate(t, workflow, error.target)));
      for (const { error, node } of checkTypes(t, checker, workflow)) diagnostics.push(diagnostic(t, file, error, { start: node.getStart(), length: node.getWidth() }));
      named.push(workflow);
    }
  }
  const duplicates = checkWorkflowNames(named.map((workflow) => workflow.model));
  for (const error of duplicates) {
    const later = named.filter((workflow) => workflow.model.name === error.workflow)[1];
    diagnostics.push(diagnostic(t, file, error, locate(t, later ?? named[0], error.target)));
  }
  // In source order, as tsc prints them: the rules run rule by rule, the type checks step by step.
  return diagnostics.sort((a, b) => (a.start ?? 0) - (b.start ?? 0) || (a.length ?? 0) - (b.length ?? 0) || a.code - b.code);
}

function diagnostic(t: typeof ts, file: ts.SourceFile, error: WorkflowDefinitionError, span: Span): ts.Diagnostic {
  return {
    file,
    start: span.start,
    length: span.length,
    messageText: error.message,
    category: t.DiagnosticCategory.Error,
    code: error.code,
    source: DIAGNOSTIC_SOURCE,
  };
}
