import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The version of `@mcpflow/transformer` this CLI is: what `mcpflow --version` prints and the
 * release a project `mcpflow init` writes depends on.
 *
 * @example
 * ```ts
 * ownVersion(); // '0.1.0'
 * ```
 */
export function ownVersion(): string {
  const manifest = path.resolve(__dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
