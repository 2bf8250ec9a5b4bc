import type * as ts from 'typescript';
import { workflowFaces, type WorkflowRunStatus } from '@mcpflow/core/model';
import { BindingTypeError } from '../errors/binding-type-error';
import type { AnalyzedWorkflow } from './analyzed-workflow';
import type { AnalyzerContext, NodeError } from './analyzer-context';
import { calledWorkflows } from './called-workflows';
import { arrayElementType, isUnchecked } from './type-paths';

const STATUSES: readonly WorkflowRunStatus[] = ['completed', 'handoff', 'failed', 'cancelled'];

/**
 * The type a step binds when it calls a workflow through `workflowTool(Class)`, which TypeScript
 * alone cannot know (a decorator's options are not in the class's type): `{ status, outputs }`,
 * `outputs` holding the called workflow's bindings, each typed by its `@Bind` property. The `@Bind`
 * property of the calling step must fit it: its `status` takes every run status, each key of its
 * `outputs` is a binding of the called workflow whose type fits, and it declares nothing else.
 */
export function checkWorkflowOutputs(context: AnalyzerContext, workflows: readonly AnalyzedWorkflow[]): NodeError[] {
  const called = calledWorkflows(context, workflows);
  if (!called.size) return [];
  const { t, checker } = context;
  const errors: NodeError[] = [];
  for (const workflow of workflows) {
    for (const step of workflow.model.steps) {
      const nodes = workflow.steps.get(step.name);
      const inner = nodes?.calledWorkflow && called.get(nodes.calledWorkflow);
      if (!nodes || !inner?.complete || step.binding === undefined) continue;
      const property = checker.getTypeAtLocation(nodes.property);
      const expected = nodes.forEach ? arrayElementType(t, checker, property) : property;
      if (!expected || isUnchecked(t, expected)) continue;
      const outputs = bindingTypes(context, inner);
      if (fits(context, expected, outputs)) continue;
      const tool = workflowFaces(inner.model).tool?.name ?? inner.model.name;
      errors.push({
        error: new BindingTypeError(
          workflow.model.name,
          step.name,
          tool,
          step.binding,
          checker.typeToString(expected),
          resultText(context, outputs),
          nodes.forEach !== undefined,
          { kind: 'binding', step: step.name, binding: step.binding },
          inner.model.name,
        ),
        node: within(workflow, nodes.bindings.get(step.binding) ?? nodes.property.name),
      });
    }
  }
  return errors;
}

/** The node, or the workflow's name when the node is in another file (a base class). */
function within(workflow: AnalyzedWorkflow, node: ts.Node): ts.Node {
  return node.getSourceFile() === workflow.nameNode.getSourceFile() ? node : workflow.nameNode;
}

/** Each binding of a workflow and the type of its `@Bind` property. */
function bindingTypes({ checker }: AnalyzerContext, workflow: AnalyzedWorkflow): Map<string, ts.Type> {
  const types = new Map<string, ts.Type>();
  for (const step of workflow.model.steps) {
    const nodes = workflow.steps.get(step.name);
    if (step.binding !== undefined && nodes && !types.has(step.binding)) types.set(step.binding, checker.getTypeAtLocation(nodes.property));
  }
  return types;
}

/** Whether `{ status, outputs }` with these outputs fits the declared type. */
function fits({ t, checker }: AnalyzerContext, declared: ts.Type, outputs: ReadonlyMap<string, ts.Type>): boolean {
  for (const member of checker.getPropertiesOfType(declared)) {
    const type = checker.getTypeOfSymbol(member);
    if (member.name === 'status') {
      if (!isUnchecked(t, type) && !STATUSES.every((status) => checker.isTypeAssignableTo(checker.getStringLiteralType(status), type)))
        return false;
    } else if (member.name === 'outputs') {
      if (isUnchecked(t, type)) continue;
      for (const output of checker.getPropertiesOfType(checker.getNonNullableType(type))) {
        const bound = outputs.get(output.name);
        const accepts = checker.getNonNullableType(checker.getTypeOfSymbol(output));
        if (!bound || (!isUnchecked(t, bound) && !isUnchecked(t, accepts) && !checker.isTypeAssignableTo(bound, accepts))) return false;
      }
    } else if (!(member.flags & t.SymbolFlags.Optional)) return false;
  }
  return true;
}

/** `{ status: …; outputs: { progress?: { room: string }; … } }`, as a message shows the result type. */
function resultText({ checker }: AnalyzerContext, outputs: ReadonlyMap<string, ts.Type>): string {
  const entries = [...outputs].map(([name, type]) => `${name}?: ${checker.typeToString(type)}`);
  return `{ status: ${STATUSES.map((status) => `"${status}"`).join(' | ')}; outputs: { ${entries.join('; ')} } }`;
}
