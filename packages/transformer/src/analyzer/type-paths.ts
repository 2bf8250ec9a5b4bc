import type * as ts from 'typescript';
import { isIndexSegment } from '@mcpflow/core/model';

/** Where a dot path leads in a type: a type, nowhere to check (`any`/`unknown`), or a missing segment. */
export type PathResult =
  | { readonly kind: 'found'; readonly type: ts.Type }
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'missing'; readonly index: number; readonly type: ts.Type; readonly candidates: readonly string[] };

/** Follows `segments` through `start`: property names, array indexes and index signatures; a union is followed through each member. */
export function walkPath(t: typeof ts, checker: ts.TypeChecker, start: ts.Type, segments: readonly string[], from = 0): PathResult {
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

/** True for `any` and `unknown`, which no check can say anything about. */
export function isUnchecked(t: typeof ts, type: ts.Type): boolean {
  return (type.flags & (t.TypeFlags.Any | t.TypeFlags.Unknown)) !== 0;
}

/**
 * The element type of an array type (a union of arrays gives the union of their elements), or
 * undefined when some non-null form of the type is not an array.
 */
export function arrayElementType(t: typeof ts, checker: ts.TypeChecker, type: ts.Type): ts.Type | undefined {
  const defined = checker.getNonNullableType(type);
  const members = defined.isUnion() ? defined.types : [defined];
  if (!members.length || !members.every((member) => checker.isArrayLikeType(member))) return undefined;
  return checker.getIndexTypeOfType(defined, t.IndexKind.Number) ?? checker.getAnyType();
}
