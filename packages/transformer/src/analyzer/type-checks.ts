import type * as ts from 'typescript';
import { isIndexSegment, parseFieldPath } from '@mcpflow/core/model';
import { ArgumentTypeError, UriValueTypeError, type IssueTarget } from '@mcpflow/core/rules';
import { BindingTypeError } from '../errors/binding-type-error';
import { FieldNotInTypeError } from '../errors/field-not-in-type-error';
import type { AnalyzedWorkflow, SourceNodes } from './analyzed-workflow';
import type { NodeError } from './analyze-file';

type PathResult =
  | { readonly kind: 'found'; readonly type: ts.Type }
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'missing'; readonly index: number; readonly type: ts.Type; readonly candidates: readonly string[] };

/**
 * The checks that need types: a `field()` path must exist in the binding's declared type (the
 * `@Bind` property's type); a value that fills a URI variable must be a string, number or
 * boolean; for a tool definition, a `fromStep`/`field` value must fit the input it is mapped to
 * and the tool's output must fit the `@Bind` property. `any` and `unknown` are not checked.
 * (`promptArg`/`constant` into a definition are checked by TypeScript itself.)
 */
export function checkTypes(t: typeof ts, checker: ts.TypeChecker, workflow: AnalyzedWorkflow): NodeError[] {
  const errors: NodeError[] = [];
  const bindingTypes = new Map<string, ts.Type>();
  for (const step of workflow.model.steps) {
    const nodes = workflow.steps.get(step.name);
    if (!nodes) continue;
    const valueType = (source: SourceNodes, target: IssueTarget): ts.Type | undefined => {
      const { source: data } = source;
      if (data.kind !== 'field' && data.kind !== 'fromStep') return undefined;
      const bound = bindingTypes.get(data.binding);
      if (!bound) return undefined;
      if (data.kind === 'fromStep') return bound;
      const segments = parseFieldPath(data.path);
      if (!segments) return undefined;
      const result = walkPath(t, checker, bound, segments);
      if (result.kind === 'missing') {
        const at = segments.slice(0, result.index).join('.');
        errors.push({
          error: new FieldNotInTypeError(workflow.model.name, step.name, data.binding, data.path, at, segments[result.index], checker.typeToString(result.type), result.candidates, target),
          node: source.second ?? source.call,
        });
        return undefined;
      }
      return result.kind === 'found' ? result.type : undefined;
    };
    for (const [arg, source] of nodes.args) {
      const type = valueType(source, { kind: 'argSource', step: step.name, arg, part: 'path' });
      const input = nodes.tool && inputType(checker, nodes.tool.input, arg);
      if (!type || !input || !nodes.tool || unchecked(t, type)) continue;
      if (!checker.isTypeAssignableTo(checker.getNonNullableType(type), input)) {
        const target: IssueTarget = { kind: 'argSource', step: step.name, arg, part: 'value' };
        errors.push({
          error: new ArgumentTypeError(
            workflow.model.name,
            step.name,
            nodes.tool.name,
            arg,
            `takes ${checker.typeToString(input)}, but the value mapped to it is of type ${checker.typeToString(type)}.`,
            `map '${arg}' from a value of type ${checker.typeToString(input)} (a deeper field() path, say), or change the tool's input schema.`,
            target,
          ),
          node: source.call,
        });
      }
    }
    for (const [variable, { source }] of nodes.templates) {
      const type = valueType(source, { kind: 'templateSource', step: step.name, variable, part: 'path' });
      const problem = type && structuredTypeProblem(t, checker, type);
      if (problem) {
        const target: IssueTarget = { kind: 'templateSource', step: step.name, variable, part: 'value' };
        errors.push({ error: new UriValueTypeError(workflow.model.name, step.name, variable, problem, target), node: source.call });
      }
    }
    const propertyType = checker.getTypeAtLocation(nodes.property);
    const output = nodes.tool?.output;
    if (step.binding !== undefined && output && nodes.tool && !unchecked(t, propertyType) && !checker.isTypeAssignableTo(output, propertyType)) {
      errors.push({
        error: new BindingTypeError(
          workflow.model.name,
          step.name,
          nodes.tool.name,
          step.binding,
          checker.typeToString(propertyType),
          checker.typeToString(output),
          { kind: 'binding', step: step.name, binding: step.binding },
        ),
        node: nodes.bindings.get(step.binding) ?? nodes.property.name,
      });
    }
    if (step.binding !== undefined && !bindingTypes.has(step.binding)) bindingTypes.set(step.binding, propertyType);
  }
  return errors;
}

function walkPath(t: typeof ts, checker: ts.TypeChecker, start: ts.Type, segments: readonly string[], from = 0): PathResult {
  let type = start;
  for (let index = from; index < segments.length; index += 1) {
    // Test any/unknown first: the non-nullable form of unknown is {}, which has no properties.
    if (type.flags & (t.TypeFlags.Any | t.TypeFlags.Unknown)) return { kind: 'unchecked' };
    type = checker.getNonNullableType(type);
    if (type.isUnion()) {
      const results = type.types.map((member) => walkPath(t, checker, member, segments, index));
      return results.find((result) => result.kind === 'found') ?? results.find((result) => result.kind === 'unchecked') ?? results[0];
    }
    const segment = segments[index];
    const next = segmentType(t, checker, type, segment);
    if (!next) return { kind: 'missing', index, type, candidates: checker.getPropertiesOfType(type).map((property) => property.name) };
    type = next;
  }
  return { kind: 'found', type };
}

function segmentType(t: typeof ts, checker: ts.TypeChecker, type: ts.Type, segment: string): ts.Type | undefined {
  const property = checker.getPropertyOfType(type, segment);
  if (property) return checker.getTypeOfSymbol(property);
  if (isIndexSegment(segment)) {
    const element = checker.getIndexTypeOfType(type, t.IndexKind.Number);
    if (element) return element;
  }
  return checker.getIndexTypeOfType(type, t.IndexKind.String);
}

/** Why a type cannot fill a URI variable, if every form it can take is an object or an array. */
function structuredTypeProblem(t: typeof ts, checker: ts.TypeChecker, type: ts.Type): string | undefined {
  if (type.flags & (t.TypeFlags.Any | t.TypeFlags.Unknown)) return undefined;
  const defined = checker.getNonNullableType(type);
  const members = defined.isUnion() ? defined.types : [defined];
  const primitive = t.TypeFlags.StringLike | t.TypeFlags.NumberLike | t.TypeFlags.BooleanLike | t.TypeFlags.Any | t.TypeFlags.Unknown | t.TypeFlags.TypeParameter;
  if (members.some((member) => member.flags & primitive)) return undefined;
  return members.length ? `a value of type ${checker.typeToString(defined)}` : undefined;
}

function unchecked(t: typeof ts, type: ts.Type): boolean {
  return (type.flags & (t.TypeFlags.Any | t.TypeFlags.Unknown)) !== 0;
}

/** The type a tool input takes, as a caller writes it; undefined for a name the input does not have. */
function inputType(checker: ts.TypeChecker, input: ts.Type, name: string): ts.Type | undefined {
  const property = checker.getPropertyOfType(input, name);
  return property && checker.getTypeOfSymbol(property);
}
