import { fork, type ChildProcess } from 'node:child_process';

/** A benchmark's HTTP server, running in a child process so that its CPU time can be read apart from the clients'. */
export interface ServerProcess {
  readonly url: URL;
  /** The child's CPU time so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  stop(): void;
}

/** What a server script sends its parent: the port it listens on, then its CPU time whenever asked. */
export type ServerMessage = { port: number } | { cpuMs: number };

/**
 * Starts a server script (see fixtures/http-server-*.ts): it listens on 127.0.0.1, port 0, sends
 * `{ port }`, and answers each `'cpu'` message with `{ cpuMs }`. `env` is added to this process's environment for it.
 */
export async function startServerProcess(script: string, env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const child: ChildProcess = fork(script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    cpuMs: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve((message as { cpuMs: number }).cpuMs));
        child.send('cpu');
      }),
    stop: () => child.kill(),
  };
}

/** The server script's side: report the port, then answer CPU-time requests. */
export function reportToParent(port: number): void {
  process.send?.({ port } satisfies ServerMessage);
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMs: (user + system) / 1000 } satisfies ServerMessage);
  });
}
