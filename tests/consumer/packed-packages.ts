import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');
export const PACKAGES = [
  '@mcpflow/core',
  '@mcpflow/decorators',
  '@mcpflow/transformer',
  '@mcpflow/testing',
  '@mcpflow/client',
  '@mcpflow/studio',
] as const;

/** `npm pack` of each workspace package (built by `npm test` first) into `destination`: package name → tarball path. */
export function packPackages(destination: string): Record<string, string> {
  const args = ['pack', '--json', '--pack-destination', destination, ...PACKAGES.flatMap((name) => ['-w', name])];
  const packed = JSON.parse(execFileSync('npm', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as {
    name: string;
    filename: string;
  }[];
  return Object.fromEntries(packed.map((entry) => [entry.name, path.join(destination, entry.filename)]));
}
