import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

/** A built example server running in a child process over HTTP. */
export interface ServedExample {
  child: ChildProcess;
  url: URL;
  /** What the server printed on stderr so far. */
  stderr(): string;
  /** The child's resident memory now, in MiB (from /proc). */
  rssMiB(): number;
  stop(): void;
}

/** Starts `examples/dist/<script>` with `--http --port 0` and the given flags; resolves once it prints where it listens. */
export function serveExample(script: string, flags: string[] = []): Promise<ServedExample> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(EXAMPLES, 'dist', script), '--http', '--port', '0', ...flags], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) {
        resolve({
          child,
          url: new URL(match[1]),
          stderr: () => stderr,
          rssMiB: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
          stop: () => child.kill(),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
  });
}
