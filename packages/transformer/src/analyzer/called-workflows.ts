import type * as ts from 'typescript';
import type { AnalyzedWorkflow } from './analyzed-workflow';
import type { AnalyzerContext } from './analyzer-context';
import { ClassReader } from './class-reader';

/** Per program: each called class read once, whatever file calls it (null: not a workflow). */
const readByChecker = new WeakMap<ts.TypeChecker, Map<ts.ClassLikeDeclaration, AnalyzedWorkflow | null>>();

/**
 * The workflow classes `workflows` call through `workflowTool(Class)`, and those these call, read
 * into the model as the runtime reads them. What is wrong inside a called class is reported in its
 * own file; here only its model counts (its tool name, arguments and steps).
 *
 * @example
 * ```ts
 * const called = calledWorkflows(context, analysis.workflows); // Map { <class GetHint> => { model: … } }
 * ```
 */
export function calledWorkflows(
  context: AnalyzerContext,
  workflows: readonly AnalyzedWorkflow[],
): Map<ts.ClassLikeDeclaration, AnalyzedWorkflow> {
  let read = readByChecker.get(context.checker);
  if (!read) readByChecker.set(context.checker, (read = new Map()));
  const found = new Map<ts.ClassLikeDeclaration, AnalyzedWorkflow>();
  const pending = workflows.flatMap((workflow) => [...workflow.steps.values()].flatMap((step) => step.calledWorkflow ?? []));
  for (let declaration = pending.pop(); declaration; declaration = pending.pop()) {
    if (found.has(declaration)) continue;
    let workflow = read.get(declaration);
    if (workflow === undefined) {
      workflow = new ClassReader(context, []).read(declaration) ?? null;
      read.set(declaration, workflow);
    }
    if (!workflow) continue;
    found.set(declaration, workflow);
    for (const step of workflow.steps.values()) if (step.calledWorkflow) pending.push(step.calledWorkflow);
  }
  return found;
}
