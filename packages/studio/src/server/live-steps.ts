import type { StepInfo } from '@mcpflow/core/model';
import type { StepState } from './api-types';
import { cappedName } from './capped';

/** A step's start or end in the server's progress: `Started step 2 of 5: build`, `Skipped step 3 of 5: deploy`. */
const STEP_PROGRESS = /^(Started|Finished|Skipped|Failed|Cancelled|Handed off) step \d+ of \d+: (.*)$/s;
/** A `forEach` item's end: `Finished item 2 of 3 of step 4 of 5: ship`. */
const ITEM_PROGRESS = /^Finished item (\d+) of (\d+) of step \d+ of \d+: (.*)$/s;

const ENDED: Readonly<Record<string, string>> = {
  Finished: 'completed',
  Skipped: 'skipped',
  Failed: 'failed',
  Cancelled: 'cancelled',
  'Handed off': 'handoff',
};

/** Statuses a step no longer leaves while the run goes on. */
const ENDED_STATES = new Set(['completed', 'skipped', 'failed', 'cancelled', 'handoff']);

/**
 * Each step's status while a run goes on, read from what the server sends: its progress (a step's
 * start and how it ended; a parallel group's steps report ends only, so its other steps are running
 * meanwhile), its questions (the running steps are `waiting` until answered), then the result's
 * `_meta["mcpflow/execution"]`, which has the last word. Also when each step started and ended, in
 * ms since the run started (the timeline's durations for a server that does not time its steps).
 */
export class LiveSteps {
  private readonly states: StepState[];
  /** When each step started and ended, by step name (progress told). */
  readonly times = new Map<string, { start?: number; end?: number }>();

  constructor(
    private readonly steps: readonly StepInfo[],
    /** Told each change: the step and its new status. */
    private readonly changed: (state: StepState) => void,
  ) {
    // A step's name is the server's text: capped as every name the studio keeps.
    this.states = steps.map((step) => ({ step: cappedName(step.name), status: 'pending' }));
  }

  /** Every step's status, in the workflow's order. */
  get all(): StepState[] {
    return this.states.map((state) => ({ ...state }));
  }

  /** A progress message of the run, `at` ms after it started. */
  progress(message: string | undefined, at: number): void {
    if (message === undefined) return;
    const item = ITEM_PROGRESS.exec(message);
    // Only the workflow's own steps, and items the timeline shows, are kept (a server's text is not trusted).
    if (item && !this.known(item[3])) return;
    // A `forEach` step's end is its last item's (the result tells whether every item completed).
    if (item) return this.set(item[3], item[1] === item[2] ? 'completed' : 'running');
    const step = STEP_PROGRESS.exec(message);
    if (!step || !this.known(step[2])) return;
    if (step[1] === 'Started') return this.started(step[2], at);
    this.times.set(step[2], { ...this.times.get(step[2]), end: at });
    this.set(step[2], ENDED[step[1]]);
  }

  /**
   * Step `name` runs, `at` ms after the run started: told by its progress (`Started step …`) or by a
   * task's `_meta["mcpflow/task"]`. A step's start can reach the studio after its question did (a
   * client hands on a notification and a request in either order): a step waiting on the user stays waiting.
   */
  started(name: string, at: number): void {
    if (!this.known(name)) return;
    const times = this.times.get(name) ?? {};
    times.start ??= at;
    this.times.set(name, times);
    if (this.states.find((state) => state.step === name)?.status !== 'waiting') this.set(name, 'running');
  }

  /**
   * A question is put to the user (`waiting`), or the last one answered: the running steps wait on
   * it; when none runs, the question is the next step's (its input is asked before it starts).
   * `key` (`<step>/<argument>`, an mcpflow server's `_meta["mcpflow/question"]`) names the step that
   * asks: every step before it has ended, whatever progress the client dropped.
   */
  asking(waiting: boolean, key?: string): void {
    const asker = key === undefined ? undefined : this.steps.find((step) => key.startsWith(`${step.name}/`));
    if (waiting && asker) this.set(asker.name, 'running');
    else if (waiting && !this.states.some((state) => state.status === 'running')) {
      const next = this.states.find((state) => state.status === 'pending');
      if (next) this.set(next.step, 'running');
    }
    for (const state of this.states) {
      if (waiting && state.status === 'running') this.set(state.step, 'waiting');
      else if (!waiting && state.status === 'waiting') this.set(state.step, 'running');
    }
  }

  /** The result's steps (`_meta["mcpflow/execution"].steps`): each step's final status. */
  finish(executed: readonly { name: string; status: string }[]): void {
    for (const { name, status } of executed) if (typeof status === 'string') this.set(name, status);
  }

  private known(name: string): boolean {
    return this.steps.some((step) => step.name === name);
  }

  private set(name: string, status: string): void {
    const index = this.steps.findIndex((step) => step.name === name);
    if (index < 0) return;
    this.update(index, status);
    // Steps of a parallel group run together (they report their ends only); a step alone starts
    // once every earlier step has ended (an end the client dropped is taken as completed).
    const group = this.steps[index].group;
    this.steps.forEach((step, other) => {
      const { status: now } = this.states[other];
      const together = group !== undefined && step.group === group;
      if (together && now === 'pending') this.update(other, 'running');
      else if (!together && other < index && (now === 'running' || now === 'pending') && status !== 'pending')
        this.update(other, 'completed');
    });
  }

  private update(index: number, status: string): void {
    const state = this.states[index];
    if (state.status === status) return;
    // Only the result moves a step out of an ended state (a resumed round may report it again).
    if (ENDED_STATES.has(state.status) && (status === 'running' || status === 'waiting')) return;
    state.status = status;
    this.changed({ ...state });
  }
}
