import type * as ts from 'typescript';

/**
 * The classes of a program that some class extends, found once per program: a base class's steps
 * run as its subclass's, as the runtime reads them (reflect-metadata follows the prototype chain).
 *
 * @example
 * ```ts
 * const isExtended = extendedClasses(ts, program);
 * if (!isExtended(helperClass)) reportStepOutsideWorkflow();
 * ```
 */
export function extendedClasses(t: typeof ts, program: ts.Program): (node: ts.ClassLikeDeclaration) => boolean {
  let bases: Set<ts.Node> | undefined;
  return (node) => {
    if (!bases) {
      bases = new Set();
      const checker = program.getTypeChecker();
      for (const file of program.getSourceFiles()) {
        if (file.isDeclarationFile || !file.text.includes('extends')) continue;
        const visit = (child: ts.Node): void => {
          if (t.isClassDeclaration(child) || t.isClassExpression(child)) {
            const base = baseClassOf(t, checker, child);
            if (base) bases?.add(base);
          }
          t.forEachChild(child, visit);
        };
        visit(file);
      }
    }
    return bases.has(node);
  };
}

/** The declaration of the class `node` extends, when the checker can find it. */
export function baseClassOf(t: typeof ts, checker: ts.TypeChecker, node: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration | undefined {
  const heritage = node.heritageClauses?.find((clause) => clause.token === t.SyntaxKind.ExtendsKeyword)?.types[0];
  return heritage && classDeclarationOf(t, checker, heritage.expression);
}

/** The declaration of the class an expression names (`Base`, `models.Base`, an aliased import), when the checker can find it. */
export function classDeclarationOf(t: typeof ts, checker: ts.TypeChecker, expression: ts.Expression): ts.ClassLikeDeclaration | undefined {
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & t.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  return declaration && (t.isClassDeclaration(declaration) || t.isClassExpression(declaration)) ? declaration : undefined;
}
