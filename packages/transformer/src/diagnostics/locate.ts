import type * as ts from 'typescript';
import type { IssueTarget } from '@mcpflow/core/rules';
import type { AnalyzedWorkflow, SourceNodes } from '../analyzer/analyzed-workflow';

/** A span of a source file a diagnostic points at. */
export interface Span {
  readonly start: number;
  readonly length: number;
}

/**
 * The node (and the span inside a string literal, where the error has offsets) an issue points at.
 * An issue in a step inherited from a base class in another file points at the workflow's name.
 */
export function locate(t: typeof ts, workflow: AnalyzedWorkflow, target: IssueTarget): Span {
  const file = workflow.nameNode.getSourceFile();
  const fallback = { start: workflow.nameNode.getStart(), length: workflow.nameNode.getWidth() };
  const whole = (node: ts.Node): Span => (node.getSourceFile() === file ? { start: node.getStart(), length: node.getWidth() } : fallback);
  const inside = (node: ts.Node | undefined, start: number, end: number): Span | undefined => {
    if (!node) return undefined;
    if (node.getSourceFile() !== file) return fallback;
    // Offsets map into the literal only when its source text is its value (no escapes).
    if ((t.isStringLiteral(node) || t.isNoSubstitutionTemplateLiteral(node)) && node.getText().slice(1, -1) === node.text) {
      return { start: node.getStart() + 1 + start, length: Math.max(1, end - start) };
    }
    return whole(node);
  };
  const sourcePart = (source: SourceNodes | undefined, part: string, within?: string): ts.Node | undefined => {
    if (!source) return undefined;
    if (within !== undefined) {
      if (part === 'options') return source.options?.get(within) ?? source.second ?? source.call;
      const nested = source.nested?.get(within);
      return nested ? sourcePart(nested, part) : source.call;
    }
    if (part === 'path') return source.second ?? source.call;
    // The `args` key the call is the value of.
    if (part === 'key') return t.isPropertyAssignment(source.call.parent) ? source.call.parent.name : source.call;
    return part === 'value' ? source.call : (source.first ?? source.call);
  };

  if (target.kind === 'workflowName') return fallback;
  if (target.kind === 'exposeOption') {
    const node =
      workflow.exposeNodes.get(target.option) ?? workflow.exposeNodes.get(target.option.split('.')[0]) ?? workflow.exposeNodes.get('');
    return node ? whole(node) : fallback;
  }
  if (target.kind === 'argumentName') return fallback;
  if (target.kind === 'workflowResource') return inside(workflow.resources[target.index], target.start, target.end) ?? fallback;
  if (target.kind === 'strayDecorator') {
    const node = workflow.strays.get(`${target.property}:${target.decorator}`);
    return node ? whole(node) : fallback;
  }
  const step = workflow.steps.get(target.step);
  if (!step) return fallback;
  const option = (key: string) => step.options.get(key);
  let span: Span | undefined;
  switch (target.kind) {
    case 'stepName':
      span = whole(option('name') ?? step.property.name);
      break;
    case 'stepAction':
      span = whole(step.action ?? step.decorator);
      break;
    case 'stepOption':
      span = whole(option(target.option.split('.')[0]) ?? step.decorator);
      break;
    case 'argSource': {
      const node = sourcePart(step.args.get(target.arg), target.part, target.within);
      span = node && whole(node);
      break;
    }
    case 'templateSource': {
      const node = sourcePart(step.templates.get(target.variable)?.source, target.part, target.within);
      span = node && whole(node);
      break;
    }
    case 'templateVariable': {
      const node = step.templates.get(target.variable)?.variable;
      span = node && whole(node);
      break;
    }
    case 'binding': {
      const node = step.bindings.get(target.binding);
      span = node && whole(node);
      break;
    }
    case 'conditionSource': {
      const node = sourcePart(step.conditionSources[target.index], target.part);
      span = node && whole(node);
      break;
    }
    case 'forEachSource': {
      const node = sourcePart(step.forEach, target.part);
      span = node && whole(node);
      break;
    }
    case 'transform':
      span = step.transform && whole(step.transform);
      break;
    case 'stepUri':
      span = inside(step.action, target.start, target.end);
      break;
    case 'embeddedUri':
      span = inside(step.embedded[target.index], target.start, target.end);
      break;
    case 'guidance':
      span = inside(option('guidance'), target.start, target.end);
      break;
  }
  return span ?? whole(step.decorator);
}
