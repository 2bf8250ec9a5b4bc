import { fork } from 'node:child_process';
import * as path from 'node:path';
import type { BenchCase, Figure } from './case';
import type { RunOptions } from './run-options';

/** What a case's process (case-process.ts) sends its parent once: the case's outcome, or why it threw. */
export type CaseMessage = { kind: 'done'; result: unknown; figures: Figure[] } | { kind: 'failed'; stack: string };

/**
 * Runs one case in a node process of its own, with this process's node flags (`--expose-gc`), and
 * resolves to what its `run` returned; rejects with the case's own error (its stack as the child
 * printed it) when it threw, or when its process ended before it answered. A case measures its
 * contender and baseline side by side inside that process: a fresh one per case keeps what an
 * earlier case left (a larger heap, V8's feedback, a global tracer provider) out of its figures.
 */
export function forkCase(bench: BenchCase, options: RunOptions): Promise<{ result: unknown; figures: Figure[] }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'case-process.js'), [bench.name, ...(options.smoke ? ['--smoke'] : [])], {
      execArgv: process.execArgv,
      stdio: 'inherit',
    });
    let answer: CaseMessage | undefined;
    child.on('message', (message: CaseMessage) => (answer = message));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (answer?.kind === 'done') resolve({ result: answer.result, figures: answer.figures });
      else if (answer?.kind === 'failed') reject(Object.assign(new Error(`${bench.name} threw`), { stack: answer.stack }));
      else reject(new Error(`${bench.name}'s process exited (${signal ?? `code ${code}`}) before it reported its figures`));
    });
  });
}
