import * as path from 'node:path';
import type * as ts from 'typescript';

/** The data-source functions of `@mcpflow/decorators`, by their declared names. */
export const DATA_SOURCES: readonly string[] = ['promptArg', 'fromStep', 'field', 'constant', 'item', 'askUser', 'askModel'];

/** The condition functions of `@mcpflow/decorators` (a step's `when`), by their declared names. */
export const CONDITIONS: readonly string[] = ['equals', 'oneOf', 'present', 'not'];

const DECORATORS_PACKAGE = '@mcpflow/decorators';

/**
 * Tells which mcpflow export a call's callee is, through the type checker: an aliased import, a
 * namespace import or a re-export resolves to the same declaration, while a look-alike local
 * function named `Step` resolves elsewhere and is ignored.
 */
export class DecoratorSource {
  private readonly packageOfDirectory = new Map<string, string | undefined>();

  constructor(
    private readonly tsApi: typeof ts,
    private readonly checker: ts.TypeChecker,
  ) {}

  /** The mcpflow export `callee` resolves to, if any. */
  resolve(callee: ts.Expression): string | undefined {
    let symbol = this.checker.getSymbolAtLocation(this.tsApi.isPropertyAccessExpression(callee) ? callee.name : callee);
    if (!symbol) return undefined;
    if (symbol.flags & this.tsApi.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol.declarations?.[0];
    if (!declaration) return undefined;
    return this.packageOf(declaration.getSourceFile().fileName) === DECORATORS_PACKAGE ? symbol.name : undefined;
  }

  private packageOf(fileName: string): string | undefined {
    const directory = path.dirname(fileName);
    if (this.packageOfDirectory.has(directory)) return this.packageOfDirectory.get(directory);
    const manifest = path.join(directory, 'package.json');
    let name: string | undefined;
    const text = this.tsApi.sys.fileExists(manifest) ? this.tsApi.sys.readFile(manifest) : undefined;
    if (text !== undefined) {
      try {
        name = (JSON.parse(text) as { name?: string }).name;
      } catch {
        name = undefined;
      }
    }
    // A manifest without a name (the `{ "type": "module" }` of an ESM build folder) belongs to the package above it.
    if (name === undefined) {
      const parent = path.dirname(directory);
      name = parent === directory ? undefined : this.packageOf(path.join(parent, 'file'));
    }
    this.packageOfDirectory.set(directory, name);
    return name;
  }
}
