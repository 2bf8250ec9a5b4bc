import { spawn } from 'node:child_process';
import path from 'node:path';

const CLI = require.resolve('@modelcontextprotocol/inspector-cli/build/index.js');

/** examples/: a folder whose parent holds a package.json, which inspector-cli needs to run from. */
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

/**
 * Runs @modelcontextprotocol/inspector-cli 1.0.3 (a 2025 client) with `args` (a server command, or
 * a URL with `--transport http`, then `--method …`), and resolves to its exit status and the JSON
 * it printed.
 *
 *   const { json } = await inspector(process.execPath, script, '--method', 'tools/list');
 */
export function inspector(...args: string[]): Promise<{ status: number | null; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: EXAMPLES, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      try {
        resolve({ status, json: JSON.parse(stdout) as Record<string, unknown> });
      } catch {
        reject(new Error(`inspector-cli exited ${status} without JSON: ${stdout}`));
      }
    });
  });
}
