import * as path from 'node:path';
import type * as ts from 'typescript';

/** The data-source functions of `@mcpflow/decorators`, by their declared names. */
export const DATA_SOURCES: readonly string[] = ['promptArg', 'fromStep', 'field', 'constant', 'item', 'askUser', 'askModel'];

/** The condition functions of `@mcpflow/decorators` (a step's `when`), by their declared names. */
export const CONDITIONS: readonly string[] = ['equals', 'oneOf', 'present', 'not'];

const DECORATORS_PACKAGE = '@mcpflow/decorators';

/**
 * What a program's files keep asking, cached per type checker (so per program): which package each
 * directory belongs to (reading a package.json per file was once the transformer's largest single
 * cost, see BENCHMARKS.md), and which mcpflow export each of the few declarations the program's
 * thousands of calls resolve to is.
 */
interface SourceCaches {
  readonly packageOfDirectory: Map<string, string | undefined>;
  readonly exportOfDeclaration: Map<ts.Declaration, string | undefined>;
}

const cachesByChecker = new WeakMap<ts.TypeChecker, SourceCaches>();

/**
 * Tells which mcpflow export a call's callee is, through the type checker: an aliased import, a
 * namespace import or a re-export resolves to the same declaration, while a look-alike local
 * function named `Step` resolves elsewhere and is ignored.
 */
export class DecoratorSource {
  private readonly caches: SourceCaches;

  constructor(
    private readonly tsApi: typeof ts,
    private readonly checker: ts.TypeChecker,
  ) {
    let caches = cachesByChecker.get(checker);
    if (!caches) cachesByChecker.set(checker, (caches = { packageOfDirectory: new Map(), exportOfDeclaration: new Map() }));
    this.caches = caches;
  }

  /** The mcpflow export `callee` resolves to, if any. */
  resolve(callee: ts.Expression): string | undefined {
    // The checker has already resolved every call it checked, so reading a call's signature is a
    // cache hit, where getSymbolAtLocation would look the name up through the scopes again.
    const call = callee.parent;
    if (this.tsApi.isCallExpression(call) && call.expression === callee) {
      const declaration = this.checker.getResolvedSignature(call)?.declaration;
      if (declaration && this.tsApi.isFunctionDeclaration(declaration) && declaration.name)
        return this.exportOf(declaration, declaration.name);
    }
    let symbol = this.checker.getSymbolAtLocation(this.tsApi.isPropertyAccessExpression(callee) ? callee.name : callee);
    if (!symbol) return undefined;
    if (symbol.flags & this.tsApi.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol.declarations?.[0];
    if (!declaration) return undefined;
    return this.packageOf(declaration.getSourceFile().fileName) === DECORATORS_PACKAGE ? symbol.name : undefined;
  }

  /** The name of a function `@mcpflow/decorators` declares, or undefined for any other function. */
  private exportOf(declaration: ts.FunctionDeclaration, identifier: ts.Identifier): string | undefined {
    const known = this.caches.exportOfDeclaration;
    if (known.has(declaration)) return known.get(declaration);
    const name = this.packageOf(declaration.getSourceFile().fileName) === DECORATORS_PACKAGE ? identifier.text : undefined;
    known.set(declaration, name);
    return name;
  }

  private packageOf(fileName: string): string | undefined {
    const directory = path.dirname(fileName);
    const known = this.caches.packageOfDirectory;
    if (known.has(directory)) return known.get(directory);
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
    known.set(directory, name);
    return name;
  }
}
