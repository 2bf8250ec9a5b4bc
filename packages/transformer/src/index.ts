import type * as ts from 'typescript';
import { addWorkflowDiagnostics } from './program-diagnostics';

/**
 * The ts-patch program transformer: `tsc` fails with a precise diagnostic when a workflow's wiring
 * is broken. Enable it in tsconfig.json:
 *
 * ```json
 * "plugins": [{ "transform": "@mcpflow/transformer", "transformProgram": true }]
 * ```
 */
export default function mcpflowTransformer(
  program: ts.Program,
  _host?: ts.CompilerHost,
  _config?: unknown,
  extras?: { ts: typeof ts },
): ts.Program {
  // Use the compiler instance that built the program: its SyntaxKind and flags are the ones its nodes carry.
  const tsInstance = extras?.ts ?? (require('typescript') as typeof ts);
  return addWorkflowDiagnostics(tsInstance, program);
}

export { addWorkflowDiagnostics, workflowDiagnosticsOf } from './program-diagnostics';
export { DIAGNOSTIC_SOURCE, type Finding, type FindingOrigin } from './diagnostics/file-diagnostics';
/**
 * The analyzer's plumbing, exported for tools built on it, left out of the API reference: their
 * signatures carry the analyzer's own structures, which may change with any release.
 *
 * @internal
 */
export { fileDiagnostics, fileFindings } from './diagnostics/file-diagnostics';
export type { Span } from './diagnostics/locate';
export type { AnalyzerContext, ProgramVersions } from './analyzer/analyzer-context';
export type { ProjectLock } from './lock/project-lock';
export type { ProgramTools } from './analyzer/program-tools';
export { extendedClasses } from './analyzer/extended-classes';
export { FieldNotInTypeError } from './errors/field-not-in-type-error';
export { TypeMismatchError } from './errors/type-mismatch-error';
export { BindingTypeError } from './errors/binding-type-error';
export { NotALiteralError } from './errors/not-a-literal-error';
export { ChecksNotInBuildError } from './errors/checks-not-in-build-error';
