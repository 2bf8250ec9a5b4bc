import { randomUUID } from 'node:crypto';
import type { AskRequest } from '../asking/ask-request';
import type { PromptMessage } from '../content';
import type { StepStatus } from '../flow/flow-outcome';
import type { IterationsMeta } from '../flow/iterations-meta';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { newMarkKey } from '../redaction/client-marks';
import { runSecrets, type RunSecrets } from '../redaction/run-secrets';
import type { ExecutionScope } from '../plan/resolve-source';
import type { CarriedTraceContext } from '../run-observer';
import { ownRecord } from '../../util/own-record';

/** Where and why a run stopped before its last step. */
export interface ExecutionStop {
  /** The index of the step that stopped the run. */
  readonly step: number;
  readonly status: 'handoff' | 'failed' | 'cancelled';
  /** Why, as the step said it (redacted when written to the trace or `_meta`). */
  readonly reason: string;
}

/** A question put to the client during the run, and how it ended (reported in `_meta`). */
export interface QuestionRecord {
  /** `<step>/<argument>` or `<step>/{<variable>}`. */
  readonly key: string;
  readonly step: string;
  readonly kind: 'askUser' | 'askModel';
  /** How many times it was put. */
  attempts: number;
  /**
   * `unasked` until it is put to the client (so every question of a round stays `unasked` when the
   * client cannot answer such questions); `asked` once put, while the run waits for it (and when the
   * client's request failed); `answered`; `declined`/`cancelled` by the user; `refused` when every
   * answer failed its schema.
   */
  status: 'asked' | 'answered' | 'declined' | 'cancelled' | 'refused' | 'unasked';
  /** Why the last answer was not accepted, shown when the question is put again. */
  rejected?: string;
}

/** A run waiting for answers (protocol 2026-07-28): the step that asked and the requests sent, by question key. */
export interface ExecutionPause {
  readonly step: number;
  readonly requests: Readonly<Record<string, AskRequest>>;
}

/** What `_meta` reports of one step's flow beyond its status. */
export interface StepFlow {
  /** Why the step was skipped, or why it did not complete without stopping the run (optional, or cancelled with its group). */
  reason?: string;
  /** A `forEach` step: how its iterations ended (their values are in its binding). */
  iterations?: IterationsMeta;
  /** How long the step ran (set only when the request asked for timing). */
  durationMs?: number;
  /** A `forEach` step with timing on: each iteration's duration, by element index. */
  iterationDurationsMs?: (number | null)[];
}

/**
 * Everything one run has produced so far, as plain data: the executor advances it step by step and
 * nothing of a run lives elsewhere, so a run can stop after any step and go on later from this
 * value alone (JSON-serialisable, given JSON-serialisable step values).
 */
export interface ExecutionState extends ExecutionScope {
  /** The workflow (prompt) name the state belongs to. */
  readonly workflow: string;
  /**
   * The run's id: random, made once as the run starts and the same in every round, on every
   * instance. Tools see it as `_meta["mcpflow/run"].id` (for idempotency keys), and a replay guard
   * consumes each paused round under it. Never in the trace or `_meta`.
   */
  readonly runId: string;
  /** The index of the next step to run. */
  position: number;
  readonly bindings: Record<string, unknown>;
  /** The conversation so far. */
  readonly messages: PromptMessage[];
  /** Each step's status in declaration order; `skipped` until the step is reached. */
  readonly statuses: StepStatus[];
  /** Sensitive values found so far (every text of the trace is redacted by them), and how the client's own text is marked. */
  readonly secrets: RunSecrets;
  /**
   * Per step index, what `_meta` reports of its flow: why it was skipped, how a loop's iterations
   * ended. (A run pauses only between groups, before any step of a group or element of a loop has
   * run: nothing of a group or loop in progress is ever kept.)
   */
  readonly flow: Record<number, StepFlow>;
  /** Set once a step stopped the run. */
  stop?: ExecutionStop;
  /** Answers to the running step's questions, by question key (no prototype); emptied as each step ends. */
  answers: Record<string, unknown>;
  /** Every question put to the client so far. */
  readonly questions: QuestionRecord[];
  /** How many times the run waited on the client: a batch of requests sent in place, or an `input_required` result. */
  rounds: number;
  /**
   * Set once a request of the run asked for step timing (`_meta["mcpflow/timing"]`): every later
   * round's result carries the durations too, whatever its own request's `_meta` (a task's
   * `tasks/input_response`, a retry that drops it).
   */
  timing?: true;
  /** Set while the run waits for the client's answers to come back with a retry. */
  pause?: ExecutionPause;
  /** The trace the run reports under, carried across pauses so every round joins it (set when it pauses with tracing on). */
  traceContext?: CarriedTraceContext;
}

/**
 * The state of a run that has not started: no messages, no bindings, every step still to come.
 *
 * @example
 * ```ts
 * const state = createExecutionState(plan, { player: 'ada' });
 * await advanceExecution(state, stepContext(plan, state, host), hooks);
 * ```
 */
export function createExecutionState(plan: WorkflowPlan, args: Readonly<Record<string, string | undefined>>): ExecutionState {
  return {
    workflow: plan.model.name,
    runId: randomUUID(),
    args: ownArguments(args),
    position: 0,
    // No prototype: a binding may be named like an Object.prototype member.
    bindings: ownRecord<unknown>(),
    messages: [],
    statuses: plan.steps.map(() => 'skipped'),
    secrets: runSecrets(plan.heldSecrets ? newMarkKey() : undefined),
    answers: ownRecord<unknown>(),
    questions: [],
    rounds: 0,
    flow: {},
  };
}

/** The prompt's arguments with no prototype: an argument named `constructor` that was left out reads as absent. */
function ownArguments(args: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const own = ownRecord<string | undefined>();
  for (const name of Object.keys(args)) own[name] = args[name];
  return own;
}
