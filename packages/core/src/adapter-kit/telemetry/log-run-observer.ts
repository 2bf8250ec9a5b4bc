import type { ObservedRun, ObservedRunEnd, ObservedStep, ObservedStepEnd, ResumedRun, StepObservation, StepObserver } from '../../engine';
import type { RunFace } from '../run/run-face';
import { thrownType, type RequestObserver } from './request-observer';
import { stepSpan } from './step-span';

/**
 * One request's share of a run as debug lines (`DEBUG=mcpflow` or the `logger` option): one line
 * as the run starts or resumes (naming the `@Workflow` `version` it runs on, when declared), per step as it ends, per question put, as it pauses, and as it
 * ends. Names, statuses, counts and durations only: never an argument, an answer, a result or a
 * reason (a reason may quote a value), so the lines are safe to keep.
 *
 * @example
 * ```ts
 * new LogRunObserver((line) => process.stderr.write(`${line}\n`), { method: 'prompts/get', name: 'get_hint' }, 'get_hint', 2);
 * // mcpflow run get_hint started: prompts/get get_hint, 2 steps, version 2
 * // mcpflow step get_hint/progress completed in 1.2 ms: execute_tool get_my_progress
 * ```
 */
export class LogRunObserver implements RequestObserver, StepObserver {
  private readonly startedAt = performance.now();
  private round = 1;
  private over = false;

  constructor(
    private readonly write: (line: string) => void,
    private readonly face: RunFace,
    private readonly workflow: string,
    private readonly steps: number,
  ) {}

  started(resumed: ResumedRun | undefined, { version }: ObservedRun): StepObserver {
    const on = version === undefined ? '' : `, version ${version}`;
    if (resumed) {
      this.round = resumed.rounds + 1;
      this.line(`run ${this.workflow} resumed: ${this.face.method} ${this.face.name}, round ${this.round}${on}`);
    } else {
      this.line(`run ${this.workflow} started: ${this.face.method} ${this.face.name}, ${count(this.steps, 'step')}${on}`);
    }
    return this;
  }

  asked(question: { readonly key: string; readonly kind: 'askUser' | 'askModel' }): void {
    this.line(`ask ${this.workflow} ${question.key}: ${question.kind}`);
  }

  traceContext(): undefined {
    return undefined;
  }

  ended(end: ObservedRunEnd): void {
    if (this.over) return;
    this.over = true;
    if (end.status === 'paused') {
      this.line(`pause ${this.workflow}: ${count(end.questions, 'question')} put, round ${this.round} ended in ${this.elapsed()}`);
      return;
    }
    const at = end.stoppedAt === undefined ? '' : ` at step ${end.stoppedAt}`;
    this.line(`run ${this.workflow} ${end.status}${at} in ${this.elapsed()}`);
  }

  threw(error: unknown): void {
    if (this.over) return;
    this.over = true;
    this.line(`run ${this.workflow} threw ${thrownType(error)} in ${this.elapsed()}`);
  }

  stepStarted(step: ObservedStep): StepObservation {
    // One line per step: the elements of a forEach step are counted in their step's line.
    if (step.iteration) return SILENT;
    const startedAt = performance.now();
    return {
      within: (work) => work(),
      ended: (end) =>
        this.line(`step ${this.workflow}/${step.name} ${end.status} in ${duration(performance.now() - startedAt)}: ${details(step, end)}`),
    };
  }

  private line(text: string): void {
    try {
      this.write(`mcpflow ${text}`);
    } catch {
      // A logger that throws must not change the run.
    }
  }

  private elapsed(): string {
    return duration(performance.now() - this.startedAt);
  }
}

const SILENT: StepObservation = { within: (work) => work(), ended: () => undefined };

/** What a step did, and where it ran: `execute_tool get_my_progress, parallel group of 3, 5 elements (4 completed, 1 failed)`. */
function details(step: ObservedStep, end: ObservedStepEnd): string {
  const parts = [stepSpan(step).name];
  if (step.group) parts.push(`parallel group of ${step.group.size}`);
  const { iterations } = end;
  if (iterations) {
    const ended = (['completed', 'skipped', 'failed', 'cancelled'] as const)
      .filter((status) => iterations[status] > 0)
      .map((status) => `${iterations[status]} ${status}`);
    parts.push(`${count(iterations.count, 'element')}${ended.length ? ` (${ended.join(', ')})` : ''}`);
  }
  return parts.join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function duration(ms: number): string {
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}
