import type { ExecutionState } from '../execution/execution-state';
import type { RunState } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { SealedStateError } from '../sealing/sealed-state-error';
import type { PausedRound, ReplayGuard, ReplayVerdict } from '../sealing/replay-guard';
import { ReplayGuardError } from '../sealing/replay-guard-error';
import { retried, type SealResult, type StateBinding, type StateSealer } from '../sealing/state-sealer';
import type { Redactor } from '../redaction/redactor';
import { runSecrets, type RunSecrets } from '../redaction/run-secrets';
import { collectSecrets } from '../execution/collect-secrets';
import { legacyPlanFingerprint, prefixMatches, sealedPrefix, type SealedPrefix } from './plan-prefix';
import { referenceSensitiveValues, restoreReferences } from './sensitive-references';
import { ownRecord } from '../../util/own-record';

type Args = Readonly<Record<string, string | undefined>>;

/** What a state is bound to besides the arguments: the prompt or tool the client called. */
export type RunBinding = Omit<StateBinding, 'arguments'>;

/** Of a run's secrets, what a resume cannot work out again: the learned values, and the key of the client's marks. */
type SealedSecrets = Pick<RunSecrets, 'learned' | 'mark'>;

/**
 * The shape of the sealed payload, raised whenever it changes. Version 2: run id, secrets as learned
 * values and a mark key, references and padding, a fingerprint of the whole plan (a payload without
 * a format is version 1). Version 3: the shapes of the steps passed (`prefix`) instead, so a
 * compatible change of the workflow resumes it (DESIGN §2.16). Version 2 still opens.
 */
const SEALED_EXECUTION_FORMAT = 3;
const LEGACY_FORMAT = 2;

/** An execution state as sealed: without the arguments (the retry or the task brings them) and the workflow's name. */
export type SealedState = Omit<ExecutionState, 'args' | 'workflow' | 'secrets'> & { readonly secrets: SealedSecrets };

/**
 * What a paused run's `requestState` holds: its execution state, less what the retry brings again
 * or the plan gives, its sensitive values referenced (`references` 1) and the padding that keeps
 * the length as it was without references (see `referenceSensitiveValues`).
 */
export interface SealedExecution {
  /** What this payload's shape is: a state of another shape (sealed before an upgrade) is refused, not misread. */
  readonly format: typeof SEALED_EXECUTION_FORMAT | typeof LEGACY_FORMAT;
  /** The steps the state passed and waits at (format 3). */
  readonly prefix?: SealedPrefix;
  /** A fingerprint of the whole plan that sealed it (format 2). */
  readonly plan?: string;
  readonly references: 0 | 1;
  readonly padding: string;
  /** The replay guard's generation for this run when it was sealed (`ReplayGuard.generation`), if it named one. */
  readonly generation?: string;
  /**
   * A task's checkpoint that holds only what the run added since the one before it (see
   * `CheckpointChain`): `state` then holds the messages from index `from` on, the bindings that
   * changed, and the run's other (small) fields whole; `dropped` names the bindings that went.
   */
  readonly delta?: { readonly from: number; readonly dropped?: readonly string[] };
  readonly state: SealedState;
}

/**
 * Seals a paused run for the client to bring back, bound to what the client called (`binding`) and
 * its arguments. The prompt arguments are left out (the retry carries them, and the seal is bound
 * to them), and so is every form of every secret the redactor
 * knows: on resume they are worked out again from the plan, the retry's arguments, the bindings and
 * the few values learned on the way (`restoreSecrets`). Sensitive prompt arguments and constants
 * are not in it at all, not even where a tool echoed one: a reference stands there instead. The
 * trace and the pending questions are sealed as written, not redacted: redaction would shorten a
 * tool's echo of the client's text where it equals a secret, and the length would tell (issue 31.6).
 */
export function sealExecution(
  state: ExecutionState,
  plan: WorkflowPlan,
  sealer: StateSealer,
  binding: RunBinding,
  generation?: string,
): SealResult {
  return sealer.seal(sealedPayload(state, sealedState(state), plan, { ...(generation !== undefined && { generation }) }), {
    ...binding,
    arguments: state.args,
  });
}

/** What of a run's state is sealed: all but its arguments and workflow's name, its secrets as their learned values and mark key. */
export function sealedState(state: ExecutionState): SealedState {
  const { args: _args, workflow: _workflow, secrets, ...rest } = state;
  return { ...rest, secrets: secrets.mark === undefined ? { learned: secrets.learned } : { learned: secrets.learned, mark: secrets.mark } };
}

/**
 * The payload that seals `kept` (all of `state` as `sealedState` gives it, or a checkpoint's delta
 * of it): its sensitive values referenced (with `largeArguments`, a task's checkpoint: its large
 * arguments too, see `referenceSensitiveValues`), and the shapes of the steps `state` passed.
 */
export function sealedPayload(
  state: ExecutionState,
  kept: SealedState,
  plan: WorkflowPlan,
  extra: Pick<SealedExecution, 'generation' | 'delta'>,
  largeArguments = false,
): SealedExecution {
  const running = runningPlan(state, plan);
  const { value, referenced, padding } = referenceSensitiveValues(kept, running, state.args, largeArguments);
  return {
    format: SEALED_EXECUTION_FORMAT,
    prefix: sealedPrefix(running, state),
    references: referenced ? 1 : 0,
    padding,
    ...extra,
    state: value,
  };
}

/**
 * Seals a run's checkpoint (the state its host's `checkpoint` hook was told) as a pause is sealed:
 * bound to `binding` and the arguments, without the arguments or any secret in it. A durable store
 * keeps it to go on from after a crash (`openCheckpoint`, `continueWorkflowRound`).
 */
export function sealCheckpoint(state: RunState, plan: WorkflowPlan, sealer: StateSealer, binding: RunBinding): SealResult {
  return sealExecution(state as ExecutionState, plan, sealer, binding);
}

/**
 * Opens a checkpoint sealed by `sealCheckpoint` for this workflow, binding and arguments. Unlike a
 * paused round's `requestState`, a checkpoint is not single use: it is the store's own, never the
 * client's, and the run it belongs to goes on from it again after each crash. Throws
 * `SealedStateError` for one that is not authentic, expired, foreign, or another version's.
 */
export function openCheckpoint(sealed: unknown, plan: WorkflowPlan, args: Args, sealer: StateSealer, binding: RunBinding): ExecutionState {
  const { payload } = sealer.openState(sealed, { ...binding, arguments: args });
  return openedExecution(payload as SealedExecution, plan, args, binding);
}

/**
 * Teaches a resumed run's redactor every secret it knew when it paused: the learned values, then
 * whatever the plan derives from the arguments and the bindings.
 */
export function restoreSecrets(plan: WorkflowPlan, state: ExecutionState, redactor: Redactor): void {
  for (const { value, origin } of state.secrets.learned) redactor.add(value, origin);
  collectSecrets(plan, state, redactor);
}

/**
 * Opens a paused run's `requestState` for this prompt (or tool: `binding`) and these arguments, and consumes its round
 * in the replay guard. Throws `SealedStateError` for a state that is not authentic, expired,
 * foreign, sealed by another version of the workflow, or resumed from before; rejects with the
 * guard's own error when it cannot tell. The guard is asked only once the state has opened and
 * fits this workflow (so a forged state cannot fill it), and nothing of the run happens before it
 * answers; `client` (who resumes, when the server can tell) lets it keep a quota per client.
 */
export async function resumeExecution(
  requestState: unknown,
  plan: WorkflowPlan,
  args: Args,
  sealer: StateSealer,
  replayGuard: ReplayGuard,
  binding: RunBinding,
  client?: string,
): Promise<ExecutionState> {
  const { payload, remainingMs } = sealer.openState(requestState, { ...binding, arguments: args });
  const opened = payload as SealedExecution;
  const state = openedExecution(opened, plan, args, binding);
  const { generation } = opened;
  const round = {
    runId: state.runId,
    round: state.rounds,
    ttlMs: remainingMs,
    client,
    ...(typeof generation === 'string' && { generation }),
  };
  const verdict = await consumeRound(replayGuard, round);
  if (verdict !== 'first') {
    throw new SealedStateError(
      'replayed',
      `it was used already: a requestState resumes its run once (a replayed retry, or a second answer to the same question is refused). ` +
        `Answer the questions of the latest input_required result, or retry ${retried(binding)} without requestState to start over.`,
    );
  }
  return state;
}

/**
 * The guard's verdict on a round, or a `ReplayGuardError` in mcpflow's words when it has none: a
 * guard of the user's own may fail with anything, and that text (a store's address, say) is not
 * for the client.
 */
async function consumeRound(replayGuard: ReplayGuard, round: PausedRound): Promise<ReplayVerdict> {
  let verdict: unknown;
  try {
    verdict = await replayGuard.consume(round);
  } catch (error) {
    if (error instanceof ReplayGuardError) throw error;
    throw new ReplayGuardError(
      'unavailable',
      'mcpflow replay guard: the guard failed, so whether this round was resumed before is unknown; the resume is refused rather than risk running its steps twice.',
      { cause: error },
    );
  }
  if (verdict === 'first' || verdict === 'replayed') return verdict;
  throw new ReplayGuardError(
    'unavailable',
    `mcpflow replay guard: the guard answered ${typeof verdict}, not 'first' or 'replayed'; the resume is refused rather than risk running its steps twice.`,
  );
}

/** The execution state of an authentic payload, once it is known to be this version of the workflow's. */
function openedExecution(opened: SealedExecution, plan: WorkflowPlan, args: Args, binding: RunBinding): ExecutionState {
  // A checkpoint's delta is only a part of a run: it opens in its chain (`CheckpointChain`), never alone.
  if (opened?.delta !== undefined)
    throw new SealedStateError('malformed', `it is not a whole run. Retry ${retried(binding)} without requestState to start over.`);
  const fitting = fittingPlan(opened, plan, binding);
  return executionOf(openedState(opened, fitting, args), fitting, plan, args);
}

/** A payload's sealed state with its references filled in again (from `fitting`, the plan version it fits, and the arguments). */
export function openedState(opened: SealedExecution, fitting: WorkflowPlan, args: Args): SealedState {
  return opened.references === 1 ? restoreReferences(opened.state, fitting, args) : opened.state;
}

/**
 * The version of the workflow an authentic payload goes on in — the plan, or one of its `previous`
 * classes whose passed steps' shapes match — else `SealedStateError` (`stale`).
 */
export function fittingPlan(opened: SealedExecution, plan: WorkflowPlan, binding: RunBinding): WorkflowPlan {
  if (opened?.format !== SEALED_EXECUTION_FORMAT && opened?.format !== LEGACY_FORMAT) {
    throw new SealedStateError(
      'stale',
      `it was sealed by an earlier version of mcpflow, whose paused runs this server does not read. Retry ${retried(binding)} without requestState to start over.`,
    );
  }
  const fitting = [plan, ...(plan.previous ?? [])].find((candidate) => fitsPlan(opened, candidate));
  if (fitting === undefined) {
    const waitedAt = typeof opened.prefix?.at === 'string' && opened.prefix.at !== '' ? opened.prefix.at : undefined;
    const at = waitedAt === undefined ? '' : ` at step '${waitedAt}'`;
    throw new SealedStateError(
      'stale',
      `it was sealed by another version of workflow '${plan.model.name}', waiting${at}, and the steps up to there have changed since ` +
        `(keep the old class in @Workflow({ previous: [...] }) to resume such runs). Retry ${retried(binding)} without requestState to start over.`,
      waitedAt,
    );
  }
  return fitting;
}

/** The execution state of a sealed state that goes on in `fitting` (the running plan of the state returned). */
export function executionOf(sealed: SealedState, fitting: WorkflowPlan, plan: WorkflowPlan, args: Args): ExecutionState {
  const state: ExecutionState = {
    ...sealed,
    // Steps added after the position since the state was sealed have not run.
    statuses: fitting.steps.map((_step, index) => sealed.statuses[index] ?? 'skipped'),
    workflow: plan.model.name,
    args,
    bindings: withoutPrototype(sealed.bindings),
    answers: withoutPrototype(sealed.answers),
    secrets: { ...runSecrets(sealed.secrets.mark), learned: sealed.secrets.learned },
  };
  runningPlans.set(state, fitting);
  return state;
}

/** The plan each opened state goes on in, when it is one of `plan.previous` or the plan itself (kept beside the state, never sealed in it). */
const runningPlans = new WeakMap<ExecutionState, WorkflowPlan>();

/**
 * The plan a run goes on in: for a state opened from a seal, the version it matched — the workflow's
 * plan or one of its `previous` classes' (DESIGN §2.16) — else `plan`. Its later pauses and
 * checkpoints are sealed with that version's steps too.
 */
export function runningPlan(state: ExecutionState, plan: WorkflowPlan): WorkflowPlan {
  return runningPlans.get(state) ?? plan;
}

/** Whether the running plan can go on from an authentic payload: its passed steps' shapes match (or, format 2, the whole plan is the one that sealed it). */
function fitsPlan(opened: SealedExecution, plan: WorkflowPlan): boolean {
  if (opened.format === LEGACY_FORMAT) return opened.plan === legacyPlanFingerprint(plan);
  return typeof opened.prefix === 'object' && opened.prefix !== null && prefixMatches(plan, opened.prefix);
}

/** JSON objects rebuilt without a prototype, as the executor keeps bindings and answers. */
function withoutPrototype(record: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(ownRecord<unknown>(), record);
}
