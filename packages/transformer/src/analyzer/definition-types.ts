import type * as ts from 'typescript';

/** What the compiler sees of a `defineTool` definition: its name and its input and output types. */
export interface ToolDefinitionType {
  readonly name: string;
  /** The arguments as a caller writes them (`ShapeInput` of the input shape). */
  readonly input: ts.Type;
  /** The structured result; undefined when the tool declares no output schema. */
  readonly output?: ts.Type;
}

/**
 * Reads `defineTool`/`defineResource` definitions through their types: the name and URI template
 * are string literal types, the input and output types sit on the `'~types'` property. An
 * expression whose type is not a definition reads as undefined.
 */
export class DefinitionTypes {
  constructor(
    private readonly t: typeof ts,
    private readonly checker: ts.TypeChecker,
  ) {}

  tool(node: ts.Expression): ToolDefinitionType | undefined {
    const type = this.checker.getTypeAtLocation(node);
    if (this.literal(type, 'kind') !== 'tool') return undefined;
    const name = this.literal(type, 'name');
    const types = this.property(type, '~types');
    const input = types && this.property(types, 'input');
    if (name === undefined || !types || !input) return undefined;
    const config = this.property(type, 'config');
    const outputSchema = config && this.property(config, 'outputSchema');
    const declaresOutput = outputSchema !== undefined && !(outputSchema.flags & (this.t.TypeFlags.Undefined | this.t.TypeFlags.Never));
    return { name, input, output: declaresOutput ? this.property(types, 'output') : undefined };
  }

  /** The URI template of a resource definition. */
  resourceUri(node: ts.Expression): string | undefined {
    return this.field(node, 'resource', 'uriTemplate');
  }

  /** A string field of a definition of this `kind` (a tool's `name`, a resource's `uriTemplate`), from its literal type. */
  field(node: ts.Expression, kind: string, field: string): string | undefined {
    const type = this.checker.getTypeAtLocation(node);
    return this.literal(type, 'kind') === kind ? this.literal(type, field) : undefined;
  }

  /** The non-optional type of a property, if the type has it. */
  private property(type: ts.Type, name: string): ts.Type | undefined {
    const symbol = this.checker.getPropertyOfType(this.checker.getNonNullableType(type), name);
    return symbol && this.checker.getNonNullableType(this.checker.getTypeOfSymbol(symbol));
  }

  private literal(type: ts.Type, name: string): string | undefined {
    const value = this.property(type, name);
    return value?.isStringLiteral() ? value.value : undefined;
  }
}
