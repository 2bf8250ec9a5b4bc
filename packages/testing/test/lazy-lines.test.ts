import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * Each SDK line is an optional peer dependency: only lines/sdk-1.ts and lines/sdk-2.ts import an
 * SDK (or the core adapter that loads one), each its own line, and the rest of the package reaches
 * them only by a dynamic import(), so loading @mcpflow/testing loads no SDK.
 */
const SRC = path.resolve(__dirname, '../src');
const LINE_FILES: Record<string, RegExp> = {
  'lines/sdk-1.ts': /^@modelcontextprotocol\/sdk\/|^@mcpflow\/core\/v1$/,
  'lines/sdk-2.ts': /^@modelcontextprotocol\/(server|client)$|^@mcpflow\/core\/v2$/,
};
const LOADS_A_LINE = /^@modelcontextprotocol\/|^@mcpflow\/core\/v[12]$|\/lines\/sdk-[12]$|^\.\/sdk-[12]$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
}

/** The module specifiers a file imports statically (import/export declarations), and those it imports with import(). */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found = { static: [] as string[], dynamic: [] as string[] };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      if (!typeOnly) found.static.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]))
      found.dynamic.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('only the line modules import an SDK, each its own line', () => {
  const files = sourceFiles(SRC);
  expect(files).toEqual(expect.arrayContaining(Object.keys(LINE_FILES)));
  for (const file of files) {
    const loaded = importsOf(file).static.filter((specifier) => LOADS_A_LINE.test(specifier));
    const line = LINE_FILES[file];
    expect({ file, loaded: line ? loaded.filter((specifier) => !line.test(specifier)) : loaded }).toEqual({ file, loaded: [] });
  }
});

test('runWorkflow reaches each line by a dynamic import() alone', () => {
  expect(importsOf('run-workflow.ts').dynamic.sort()).toEqual(['./lines/sdk-1', './lines/sdk-2']);
});
