/**
 * One case of `npm run bench` in a process of its own (fork-case.ts forks this file): runs the case
 * named by the first argument (`--smoke` after it for a smoke pass), sends its outcome to the parent
 * and exits, whatever the case left open.
 */
import { CASES } from './cases';
import type { CaseMessage } from './fork-case';

async function main(): Promise<CaseMessage> {
  if (!process.send)
    throw new Error('case-process.js runs as a child of bench/dist/run.js (npm run bench), which reads its figures over IPC');
  const [name, ...flags] = process.argv.slice(2);
  const bench = CASES.find((candidate) => candidate.name === name);
  if (!bench) throw new Error(`no benchmark named ${name}`);
  const { result, figures } = await bench.run({ smoke: flags.includes('--smoke') });
  return { kind: 'done', result, figures };
}

function report(message: CaseMessage): void {
  if (process.send) process.send(message, () => process.exit(0));
  else {
    console.error(message.kind === 'failed' ? message.stack : 'no parent to report to');
    process.exit(1);
  }
}

main().then(report, (error: unknown) =>
  report({ kind: 'failed', stack: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
);
