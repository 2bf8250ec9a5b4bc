import type * as ts from 'typescript';
import { stepTool } from '@mcpflow/core/model';
import {
  DecoratorModeError,
  InvalidLockFileError,
  checkLockedShapes,
  checkWorkflowNames,
  validateWorkflow,
  type WorkflowDefinitionError,
} from '@mcpflow/core/rules';
import { typoOf } from '../analyzer/program-tools';
import { analyzeFile, type FileAnalysis } from '../analyzer/analyze-file';
import type { AnalyzerContext, NodeError } from '../analyzer/analyzer-context';
import { UnknownToolNameError } from '../errors/unknown-tool-name-error';
import type { AnalyzedWorkflow } from '../analyzer/analyzed-workflow';
import { checkPromptArgumentTypes, checkTypes } from '../analyzer/type-checks';
import { checkWorkflowOutputs } from '../analyzer/workflow-output-checks';
import { locate, type Span } from './locate';
import { workflowCallErrors } from './workflow-call-findings';

/** The source of every mcpflow diagnostic, as tsc prints nothing for it but editors may show it. */
export const DIAGNOSTIC_SOURCE = 'mcpflow';

/** Where a finding comes from: reading the class, a shared rule of `@mcpflow/core`, or a type check. */
export type FindingOrigin = 'reader' | 'rule' | 'types';

/** One error of a file, where it points and where it comes from. */
export interface Finding {
  readonly error: WorkflowDefinitionError;
  readonly span: Span;
  readonly origin: FindingOrigin;
}

/**
 * Every mcpflow finding of one file (read now, or given as `analysis`): the shared rules of `@mcpflow/core` run on the model read from
 * the AST, the checks that need types, and the compiler options the decorators need. A bug in the
 * analyzer is rethrown, never hidden; an error in the user's code is always a finding.
 *
 * @example
 * ```ts
 * const context = { t: ts, checker: program.getTypeChecker(), isExtended: extendedClasses(ts, program) };
 * const codes = fileFindings(context, program.getCompilerOptions(), file).map((finding) => finding.error.code);
 * ```
 */
export function fileFindings(
  context: AnalyzerContext,
  options: ts.CompilerOptions,
  file: ts.SourceFile,
  analysis: FileAnalysis = analyzeFile(context, file),
): Finding[] {
  const { t, checker } = context;
  const whole = (node: ts.Node): Span => ({ start: node.getStart(), length: node.getWidth() });
  const findings: Finding[] = analysis.errors.map(({ error, node }) => ({ error, span: whole(node), origin: 'reader' }));
  const named: AnalyzedWorkflow[] = [];
  for (const workflow of analysis.workflows) {
    if (!options.experimentalDecorators) {
      findings.push({
        error: DecoratorModeError.compilerOptionOff(workflow.model.name),
        span: whole(workflow.decorator),
        origin: 'reader',
      });
    }
    if (!workflow.complete) continue;
    // A previous class is read in its own file as a workflow of its own, and checked there.
    for (const error of validateWorkflow(workflow.model, { previousClasses: false }))
      findings.push({ error, span: locate(t, workflow, error.target), origin: 'rule' });
    for (const error of lockErrors(context, workflow)) findings.push({ error, span: locate(t, workflow, error.target), origin: 'rule' });
    // A rule use() checks too (on the schema values), read here from their types.
    for (const { error, node } of checkPromptArgumentTypes(t, checker, workflow))
      findings.push({ error, span: whole(node), origin: 'rule' });
    for (const { error, node } of toolNameErrors(context, workflow)) findings.push({ error, span: whole(node), origin: 'rule' });
    for (const { error, node } of checkTypes(t, checker, workflow)) {
      findings.push({ error, span: whole(node.getSourceFile() === file ? node : workflow.nameNode), origin: 'types' });
    }
    named.push(workflow);
  }
  for (const { error, node } of checkWorkflowOutputs(context, named)) findings.push({ error, span: whole(node), origin: 'types' });
  for (const { error, workflow } of workflowCallErrors(context, named))
    findings.push({ error, span: locate(t, workflow, error.target), origin: 'rule' });
  // A class kept in some workflow's `previous` shares its name by design.
  const isPrevious = context.versions?.().isPrevious ?? (() => false);
  for (const error of checkWorkflowNames(named.filter((workflow) => !isPrevious(workflow.declaration)).map((workflow) => workflow.model))) {
    const later = named.filter((workflow) => workflow.model.name === error.workflow)[1];
    findings.push({ error, span: locate(t, later ?? named[0], error.target), origin: 'rule' });
  }
  return findings;
}

/**
 * The lock check (DESIGN §2.16) of a workflow against the program's `mcpflow.lock.json`, when it has
 * one: the rule of `@mcpflow/core` (`checkLockedShapes`), so the compiler decides as the server
 * resumes. A class kept in some workflow's `previous` is not the latest version: it is not checked.
 */
function lockErrors(context: AnalyzerContext, workflow: AnalyzedWorkflow): WorkflowDefinitionError[] {
  const versions = context.versions?.();
  if (!versions?.lock || versions.isPrevious(workflow.declaration)) return [];
  const { file, lock, problem } = versions.lock;
  if (problem !== undefined) return [new InvalidLockFileError(workflow.model.name, file, problem)];
  return checkLockedShapes(workflow.model, lock.get(workflow.model.name));
}

/**
 * The steps' tools named by string that none of the program's visible tools matches while one is
 * a letter or two apart (`typoOf`): a typo caught before start. A name far from all of them may be registered where the
 * compiler cannot see (`mcpflow validate` notes it); so may every name when the program shows no
 * registration at all, or one it cannot read.
 */
function toolNameErrors(context: AnalyzerContext, workflow: AnalyzedWorkflow): NodeError[] {
  const tools = context.tools?.();
  if (!tools?.visible) return [];
  const errors: NodeError[] = [];
  for (const [step, name, node] of stringTools(context.t, workflow)) {
    if (tools.names.has(name)) continue;
    const close = typoOf(name, tools.names);
    if (close !== undefined)
      errors.push({ error: new UnknownToolNameError(workflow.model.name, step, name, close, { kind: 'stepAction', step }), node });
  }
  return errors;
}

/** Each step that names its tool by a string literal: its name, the tool's, and the literal. */
export function stringTools(t: typeof ts, workflow: AnalyzedWorkflow): [step: string, tool: string, node: ts.Expression][] {
  const found: [string, string, ts.Expression][] = [];
  for (const step of workflow.model.steps) {
    const nodes = workflow.steps.get(step.name);
    const tool = stepTool(step);
    if (tool !== undefined && nodes?.action && !nodes.tool && !nodes.calledWorkflow && t.isStringLiteralLike(nodes.action))
      found.push([step.name, tool, nodes.action]);
  }
  return found;
}

/** The mcpflow diagnostics of one file, as the compiler reports them: in source order, as tsc prints them. */
export function fileDiagnostics(
  context: AnalyzerContext,
  options: ts.CompilerOptions,
  file: ts.SourceFile,
  analysis?: FileAnalysis,
): ts.Diagnostic[] {
  const findings = fileFindings(context, options, file, analysis).sort(
    (a, b) => a.span.start - b.span.start || a.span.length - b.span.length || a.error.code - b.error.code,
  );
  return findings.map(({ error, span }) => ({
    file,
    start: span.start,
    length: span.length,
    messageText: error.message,
    category: context.t.DiagnosticCategory.Error,
    code: error.code,
    source: DIAGNOSTIC_SOURCE,
  }));
}
