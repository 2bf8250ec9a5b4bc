/** The server processes the studio started and that still run. */
const children = new Set<() => number | null>();
let hooked = false;

function killAll(): void {
  for (const pidOf of children) {
    const pid = pidOf();
    if (pid === null) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  children.clear();
}

/**
 * Keeps a stdio server's process from outliving the studio: however the studio's process ends
 * (`close()`, an uncaught error, `process.exit`), the process is sent SIGTERM. `pid` is read then
 * (the SDK may swap the process it first started for another). Call the returned
 * function once the process ended on its own.
 */
export function reapOnExit(pid: () => number | null): () => void {
  if (!hooked) {
    hooked = true;
    process.once('exit', killAll);
  }
  children.add(pid);
  return () => children.delete(pid);
}
