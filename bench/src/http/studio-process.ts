import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

/** What the bench tells the studio's process (fixtures/studio-process.ts). */
export type StudioCommand = { kind: 'open'; url: string } | { kind: 'close' } | { kind: 'cpu' };

/** What the studio's process answers: one reply per command, or `error`; `ready` once at start. */
export type StudioReply =
  { kind: 'ready' } | { kind: 'opened' } | { kind: 'closed' } | { kind: 'cpu'; cpuMs: number } | { kind: 'error'; message: string };

/** The studio in a process of its own, as a user's `mcpflow dev` runs beside their server and clients. */
export interface StudioProcess {
  /** Starts a studio connected to `url`, and a page left open on it; resolves once it is connected. */
  open(url: URL): Promise<void>;
  /** Closes the page and the studio (its session on the server ends). */
  close(): Promise<void>;
  /** The process's CPU time so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  stop(): void;
}

/** Starts fixtures/studio-process.js and waits until it listens for commands. */
export async function startStudioProcess(): Promise<StudioProcess> {
  const child: ChildProcess = fork(path.join(__dirname, '..', 'fixtures', 'studio-process.js'), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = (): Promise<StudioReply> =>
    new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the studio process exited with ${code}`));
      child.once('exit', exited);
      child.once('message', (reply: StudioReply) => {
        child.off('exit', exited);
        if (reply.kind === 'error') reject(new Error(`the studio process failed: ${reply.message}`));
        else resolve(reply);
      });
    });
  const ask = async (command: StudioCommand): Promise<StudioReply> => {
    const reply = next();
    child.send(command);
    return reply;
  };
  await next();
  return {
    open: async (url) => void (await ask({ kind: 'open', url: url.href })),
    close: async () => void (await ask({ kind: 'close' })),
    cpuMs: async () => ((await ask({ kind: 'cpu' })) as { cpuMs: number }).cpuMs,
    stop: () => child.kill(),
  };
}
