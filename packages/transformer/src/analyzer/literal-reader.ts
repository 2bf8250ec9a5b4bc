import type * as ts from 'typescript';
import type { JsonValue } from '@mcpflow/core/model';

/** Reads literal values through the type checker: a `const` or an enum member with a literal type counts. */
export class LiteralReader {
  constructor(
    private readonly tsApi: typeof ts,
    private readonly checker: ts.TypeChecker,
  ) {}

  /** The string value of `node`, if the checker can pin it to one string literal. */
  string(node: ts.Expression | undefined): string | undefined {
    if (!node) return undefined;
    if (this.tsApi.isStringLiteralLike(node)) return node.text;
    const type = this.checker.getTypeAtLocation(node);
    return type.isStringLiteral() ? type.value : undefined;
  }

  /** The JSON value of a literal expression (for `constant(...)`), or undefined when it is not one. */
  json(node: ts.Expression): JsonValue | undefined {
    const t = this.tsApi;
    if (node !== this.unwrap(node)) return this.json(this.unwrap(node));
    if (t.isStringLiteralLike(node)) return node.text;
    if (t.isNumericLiteral(node)) return Number(node.text);
    if (t.isPrefixUnaryExpression(node) && node.operator === t.SyntaxKind.MinusToken && t.isNumericLiteral(node.operand))
      return -Number(node.operand.text);
    if (node.kind === t.SyntaxKind.TrueKeyword) return true;
    if (node.kind === t.SyntaxKind.FalseKeyword) return false;
    if (node.kind === t.SyntaxKind.NullKeyword) return null;
    if (t.isArrayLiteralExpression(node)) {
      const items = node.elements.map((element) => this.json(element));
      return items.every((item) => item !== undefined) ? (items as JsonValue[]) : undefined;
    }
    if (t.isObjectLiteralExpression(node)) {
      const object: Record<string, JsonValue> = {};
      for (const property of node.properties) {
        const key = property.name ? this.propertyName(property.name) : undefined;
        if (!t.isPropertyAssignment(property) || key === undefined) return undefined;
        const value = this.json(property.initializer);
        if (value === undefined) return undefined;
        object[key] = value;
      }
      return object;
    }
    return undefined;
  }

  /** The expression under parentheses, `as` and `satisfies`. */
  unwrap(node: ts.Expression): ts.Expression {
    const t = this.tsApi;
    return t.isParenthesizedExpression(node) || t.isAsExpression(node) || t.isSatisfiesExpression(node)
      ? this.unwrap(node.expression)
      : node;
  }

  /** The name of an object literal property, if it is a plain or string-literal name. */
  propertyName(name: ts.PropertyName): string | undefined {
    const t = this.tsApi;
    if (t.isIdentifier(name) || t.isStringLiteral(name) || t.isNumericLiteral(name)) return name.text;
    if (t.isComputedPropertyName(name)) return this.string(name.expression);
    return undefined;
  }

  /** The properties of an object literal, by name. */
  properties(expression: ts.Expression | undefined): Map<string, ts.Expression> | undefined {
    const t = this.tsApi;
    const node = expression && this.unwrap(expression);
    if (!node || !t.isObjectLiteralExpression(node)) return undefined;
    const properties = new Map<string, ts.Expression>();
    for (const property of node.properties) {
      if (t.isPropertyAssignment(property)) {
        const key = this.propertyName(property.name);
        if (key !== undefined) properties.set(key, property.initializer);
      } else if (t.isShorthandPropertyAssignment(property)) {
        properties.set(property.name.text, property.name);
      }
    }
    return properties;
  }
}
