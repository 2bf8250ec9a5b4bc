import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * DESIGN §4: only the SDK adapters (core/src/v1, core/src/v2) may import an MCP SDK, and nothing
 * outside them may reach into them: not the engine, not the adapter kit, not the SDK-neutral root.
 */

const packagesDir = path.resolve(__dirname, '../..');
const coreSrc = path.join(packagesDir, 'core', 'src');
const adapters = [path.join(coreSrc, 'v1'), path.join(coreSrc, 'v2')];

const isSdk = (specifier: string): boolean => specifier.startsWith('@modelcontextprotocol/');
const isAdapterEntry = (specifier: string): boolean => /^@mcpflow\/core(\/v[12])?$/.test(specifier);
const inAdapter = (file: string): boolean => adapters.some((folder) => file === folder || file.startsWith(folder + path.sep));

/** Every module a file imports, re-exports, requires or imports dynamically, as written. */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** What is wrong with one file's imports, if anything. */
function layeringProblems(file: string, source: string): string[] {
  if (inAdapter(file)) return [];
  return importsOf(source).flatMap((specifier) => {
    if (isSdk(specifier)) return [`${file} imports the SDK (${specifier}); only core/src/v1 and core/src/v2 may`];
    const reachesAdapter = specifier.startsWith('.') ? inAdapter(path.resolve(path.dirname(file), specifier)) : isAdapterEntry(specifier);
    return reachesAdapter ? [`${file} imports an SDK adapter (${specifier}), which loads an SDK`] : [];
  });
}

describe('layering', () => {
  it('reads every kind of import, so a violation cannot hide', () => {
    const source = [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "import type { Client } from '@modelcontextprotocol/client';",
      "export { x } from '../v1/host';",
      "const lazy = () => import('@modelcontextprotocol/server');",
      "const old = require('@mcpflow/core/v1');",
    ].join('\n');
    expect(layeringProblems(path.join(coreSrc, 'engine', 'sample.ts'), source)).toEqual([
      expect.stringContaining('(@modelcontextprotocol/sdk/server/mcp.js)'),
      expect.stringContaining('(@modelcontextprotocol/client)'),
      expect.stringContaining('SDK adapter (../v1/host)'),
      expect.stringContaining('(@modelcontextprotocol/server)'),
      expect.stringContaining('SDK adapter (@mcpflow/core/v1)'),
    ]);
    expect(layeringProblems(path.join(coreSrc, 'v1', 'sample.ts'), source)).toEqual([]);
  });

  it('keeps every SDK import inside core/src/v1 and core/src/v2', () => {
    const files = ['core', 'decorators', 'transformer'].flatMap((name) => sourceFiles(path.join(packagesDir, name, 'src')));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => layeringProblems(file, fs.readFileSync(file, 'utf8')))).toEqual([]);
  });
});
