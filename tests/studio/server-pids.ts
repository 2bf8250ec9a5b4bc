import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A file a test server appends its process id to (the fixture servers do, when told its path in an
 * environment variable), and which of those processes are alive: how the studio tests find the
 * server the studio started, kill it, and see the studio start another.
 *
 * @example
 * ```ts
 * const pids = serverPids();
 * await startDev({ command }, { MCPFLOW_STUDIO_FIXTURE_PIDS: pids.file });
 * process.kill(pids.alive()[0]);
 * ```
 */
export function serverPids(): { readonly file: string; alive(): number[] } {
  const file = join(mkdtempSync(join(tmpdir(), 'studio-pids-')), 'pids');
  return {
    file,
    alive: () =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map(Number)
        .filter((pid) => {
          try {
            process.kill(pid, 0);
            return true;
          } catch {
            return false;
          }
        }),
  };
}
