import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A diagnostic as tsserver's protocol reports it. */
export interface ServerDiagnostic {
  start: { line: number; offset: number };
  text: string;
  code: number;
}

/**
 * A real tsserver process spoken to over its stdio protocol, as an editor does: requests are JSON
 * lines, answers come framed by a Content-Length header.
 */
export class TsServerSession {
  private readonly process: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private seq = 0;
  private readonly waiting = new Map<number, (body: unknown) => void>();
  stderr = '';

  constructor(tsserverJs: string, args: string[], cwd: string) {
    this.process = spawn(process.execPath, [tsserverJs, ...args], { cwd, stdio: 'pipe' });
    this.process.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.process.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  /** Sends a request that has no response (such as `open`). */
  notify(command: string, args: unknown): void {
    this.seq += 1;
    this.process.stdin.write(`${JSON.stringify({ seq: this.seq, type: 'request', command, arguments: args })}\n`);
  }

  /** Sends a request and resolves with its response's body. */
  request<T>(command: string, args: unknown): Promise<T> {
    this.seq += 1;
    const seq = this.seq;
    const answer = new Promise<T>((resolve) => this.waiting.set(seq, resolve as (body: unknown) => void));
    this.process.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    return answer;
  }

  close(): void {
    this.process.kill();
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = /^Content-Length: (\d+)\r\n\r\n/.exec(this.buffer.toString('latin1', 0, Math.min(this.buffer.length, 64)));
      if (!header) return;
      const start = header[0].length;
      const end = start + Number(header[1]);
      if (this.buffer.length < end) return;
      const message = JSON.parse(this.buffer.toString('utf8', start, end)) as { type: string; request_seq?: number; body?: unknown };
      this.buffer = this.buffer.subarray(end);
      if (message.type === 'response' && message.request_seq !== undefined) this.waiting.get(message.request_seq)?.(message.body);
    }
  }
}
