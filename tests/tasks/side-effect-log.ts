import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/**
 * The side-effect log of the task fault matrix: each step's tool appends a line as it starts
 * (fault-instance.js), and the test appends what it did (`cancel-acked` once tasks/cancel answered).
 * Lines are in the order they were appended (one file, O_APPEND, from every process).
 */
export interface SideEffect {
  readonly event: 'start' | 'aborted' | 'cancel-acked';
  readonly label: string;
  readonly step?: string;
  readonly run?: string;
  readonly instance: string;
  readonly at: number;
}

export function readSideEffects(path: string): SideEffect[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as SideEffect);
}

export function appendSideEffect(path: string, line: Omit<SideEffect, 'at'>): void {
  appendFileSync(path, `${JSON.stringify({ ...line, at: Date.now() })}\n`);
}

/** What a task's log is checked against: its steps in order, and how the task ended. */
export interface Expected {
  readonly steps: readonly string[];
  /** The task completed: every step ran. */
  readonly completed?: boolean;
}

/**
 * The fencing invariants of one task (by its label), as a list of violations (empty: all hold):
 * - one run id for every step (a round taken over goes on with the same id, the idempotency key);
 * - no step starts on an instance after another instance started one of the task (took the round over);
 * - steps start in order, each the one after the last, or the last again (the step in flight at a
 *   crash or takeover), so a step runs at most twice and never after a later one;
 * - nothing starts after `cancel-acked`;
 * - a completed task ran every step.
 */
export function fencingViolations(log: readonly SideEffect[], label: string, expected: Expected): string[] {
  const problems: string[] = [];
  const lines = log.filter((line) => line.label === label);
  const starts = lines.filter((line) => line.event === 'start');
  const runs = new Set(starts.map((line) => line.run));
  if (runs.size > 1) problems.push(`the steps ran under ${runs.size} run ids: ${[...runs].join(', ')}`);
  const leftBehind = new Set<string>();
  let previous: SideEffect | undefined;
  let cancelled = false;
  for (const line of lines) {
    if (line.event === 'cancel-acked') cancelled = true;
    if (line.event !== 'start') continue;
    if (cancelled) problems.push(`${line.step} started on ${line.instance} after tasks/cancel was acked`);
    if (leftBehind.has(line.instance)) problems.push(`${line.step} started on ${line.instance} after another instance took the round over`);
    const index = expected.steps.indexOf(line.step!);
    const last = previous ? expected.steps.indexOf(previous.step!) : -1;
    if (index !== last + 1 && !(index === last && previous !== undefined))
      problems.push(`${line.step} started after ${previous?.step ?? 'nothing'} (steps run in order, the one in flight at most twice)`);
    if (previous && previous.instance !== line.instance) leftBehind.add(previous.instance);
    previous = line;
  }
  for (const step of expected.steps) {
    const count = starts.filter((line) => line.step === step).length;
    if (count > 2) problems.push(`${step} started ${count} times`);
    if (expected.completed && count === 0) problems.push(`${step} never ran, yet the task completed`);
  }
  const doubled = expected.steps.filter((step) => starts.filter((line) => line.step === step).length === 2);
  if (doubled.length > 1) problems.push(`more than the step in flight ran twice: ${doubled.join(', ')}`);
  return problems;
}
