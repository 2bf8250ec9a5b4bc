import type * as ts from 'typescript';
import { isIndexSegment, parseFieldPath, type DataSource } from '@mcpflow/core/model';
import type { IssueTarget } from '@mcpflow/core/rules';
import { FieldNotInTypeError } from '../errors/field-not-in-type-error';
import { TypeMismatchError } from '../errors/type-mismatch-error';
import type { AnalyzedWorkflow, SourceNodes } from './analyzed-workflow';
import type { NodeError } from './analyze-file';

type PathResult =
  | { readonly kind: 'found'; readonly type: ts.Type }
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'missing'; readonly index: number; readonly type: ts.Type; readonly candidates: readonly string[] };

/**
 * The checks that need types: a `field()` path must exist in the binding's declared type (the
 * `@Bind` property's type), and a value that fills a URI variable must be a string, number or
 * boolean. `any` and `unknown` are not checked.
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
    for (const [arg, source] of nodes.args) valueType(source, { kind: 'argSource', step: step.name, arg, part: 'path' });
    for (const [variable, { source }] of nodes.templates) {
      const type = valueType(source, { kind: 'templateSource', step: step.name, variable, part: 'path' });
      const problem = type ? structuredTypeProblem(t, checker, type) : constantProblem(source.source);
      if (problem) {
        errors.push({
          error: new TypeMismatchError(
            workflow.model.name,
            step.name,
            `{${variable}} would be filled with ${problem}, but a URI variable takes a string, number or boolean.`,
            `bind {${variable}} to a field of string, number or boolean type, such as field('<binding>', '<path>.id').`,
            { kind: 'templateSource', step: step.name, variable, part: 'value' },
          ),
          node: source.call,
        });
      }
    }
    if (step.binding !== undefined && !bindingTypes.has(step.binding)) bindingTypes.set(step.binding, checker.getTypeAtLocation(nodes.property));
  }
  return errors;
}

function walkPath(t: typeof ts, checker: ts.TypeChecker, start: ts.Type, segments: readonly string[], from = 0): PathResult {
  let type = start;
  for (let index = from; index < segments.length; index += 1) {
    // Test any/unknown first: the non-nullable form of unknown is {}, which has no properties.
    if (type.flags & (t.TypeFlags.Any | t.TypeFlags.Unknown)) return { kind: 'unchecked' };
    // An object type is never nullable: asking anyway makes the checker resolve all its members
    // (for an array, every method of Array instantiated for that element type).
    if (!(type.flags & t.TypeFlags.Object)) type = checker.getNonNullableType(type);
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
  // An index into an array is its element type, read without resolving Array's members.
  if (isIndexSegment(segment) && checker.isArrayType(type)) return checker.getTypeArguments(type as ts.TypeReference)[0];
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

function constantProblem(source: DataSource): string | undefined {
  if (source.kind !== 'constant' || source.value === null || typeof source.value !== 'object') return undefined;
  return Array.isArray(source.value) ? 'an array constant' : 'an object constant';
}
