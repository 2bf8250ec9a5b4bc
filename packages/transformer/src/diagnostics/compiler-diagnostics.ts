import type * as ts from 'typescript';
import { ErrorCodes } from '@mcpflow/core/rules';
import type { FileAnalysis } from '../analyzer/analyze-file';
import type { AnalyzerContext } from '../analyzer/analyzer-context';
import { DecoratorSource } from '../analyzer/decorator-source';
import { argumentTypeExplanation } from './argument-type-explanation';
import { workflowAt } from './workflow-at';

/**
 * TypeScript's "unable to resolve signature of … decorator" errors (class, parameter, property,
 * method, and their return-type forms): what legacy decorators get when compiled as standard ones.
 */
const DECORATOR_SIGNATURE_CODES = new Set([1238, 1239, 1240, 1241, 1270, 1271]);
const MCPFLOW_DECORATORS = new Set(['Workflow', 'Step', 'Bind', 'TemplateBinding']);
const NOT_ASSIGNABLE = 2322;

/** The decorator whose span holds `position`, if one does. */
function decoratorAt(t: typeof ts, file: ts.SourceFile, position: number): ts.Decorator | undefined {
  let found: ts.Decorator | undefined;
  const visit = (node: ts.Node): void => {
    if (found || position < node.getStart(file) || position >= node.end) return;
    if (t.isDecorator(node)) found = node;
    else t.forEachChild(node, visit);
  };
  t.forEachChild(file, visit);
  return found;
}

function isMcpflowDecorator(t: typeof ts, source: DecoratorSource, decorator: ts.Decorator): boolean {
  const callee = t.isCallExpression(decorator.expression) ? decorator.expression.expression : decorator.expression;
  const name = source.resolve(callee);
  return name !== undefined && MCPFLOW_DECORATORS.has(name);
}

/** A diagnostic with `line` added under its message, unless it is there already. */
function withLine(diagnostic: ts.Diagnostic, line: ts.DiagnosticMessageChain): ts.Diagnostic {
  const { messageText } = diagnostic;
  if (typeof messageText === 'string')
    return { ...diagnostic, messageText: { messageText, category: diagnostic.category, code: diagnostic.code, next: [line] } };
  if (messageText.next?.some((next) => next.code === line.code && next.messageText === line.messageText)) return diagnostic;
  return { ...diagnostic, messageText: { ...messageText, next: [line, ...(messageText.next ?? [])] } };
}

/**
 * TypeScript's own diagnostics of a file as mcpflow shows them, where it knows better, and only
 * where the transformer (or the editor plugin, or the CLI) runs — never in a plain `tsc`:
 * - with `experimentalDecorators` off, the TS1240s (and kin) of mcpflow's decorators in a file whose
 *   workflows get TS91031 are left out: TS91031 says what is wrong, and the fix, once;
 * - a TS2322 on an argument of a tool definition gets a line in the workflow's terms under it.
 * Returns `diagnostics` itself when nothing changes.
 *
 * @example
 * ```ts
 * const shown = presentCompilerDiagnostics(context, program.getCompilerOptions(), file, analysis, program.getSemanticDiagnostics(file));
 * ```
 */
export function presentCompilerDiagnostics(
  context: AnalyzerContext,
  options: ts.CompilerOptions,
  file: ts.SourceFile,
  analysis: FileAnalysis,
  diagnostics: readonly ts.Diagnostic[],
): readonly ts.Diagnostic[] {
  if (analysis.workflows.length === 0) return diagnostics;
  const { t, checker } = context;
  let changed = false;
  let source: DecoratorSource | undefined;
  const presented: ts.Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const start = diagnostic.start;
    if (diagnostic.file !== file || start === undefined) {
      presented.push(diagnostic);
      continue;
    }
    if (!options.experimentalDecorators && DECORATOR_SIGNATURE_CODES.has(diagnostic.code)) {
      const decorator = decoratorAt(t, file, start);
      if (decorator && isMcpflowDecorator(t, (source ??= new DecoratorSource(t, checker)), decorator)) {
        changed = true;
        continue;
      }
    }
    const place = diagnostic.code === NOT_ASSIGNABLE ? workflowAt(t, analysis, start) : undefined;
    const explanation = place && argumentTypeExplanation(t, checker, place.workflow, start);
    if (explanation) {
      const line = { messageText: explanation.message, category: diagnostic.category, code: ErrorCodes.ArgumentType };
      const explained = withLine(diagnostic, line);
      changed ||= explained !== diagnostic;
      presented.push(explained);
      continue;
    }
    presented.push(diagnostic);
  }
  return changed ? presented : diagnostics;
}
