import type { ExecutionState } from '../execution/execution-state';
import type { RunState } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { SealedStateError } from '../sealing/sealed-state-error';
import type { SealResult, StateSealer } from '../sealing/state-sealer';
import { ownRecord } from '../../util/own-record';
import {
  executionOf,
  fittingPlan,
  openedState,
  sealedPayload,
  sealedState,
  type RunBinding,
  type SealedExecution,
  type SealedState,
} from './sealed-execution';

type Args = Readonly<Record<string, string | undefined>>;

/** What the last checkpoint of the chain held: how many messages, and each binding (by reference: a step binds new values, it never changes one in place). */
interface Reached {
  readonly messages: number;
  readonly bindings: ReadonlyMap<string, unknown>;
}

/**
 * A task's checkpoints as a chain of deltas (DESIGN §2.13 "a checkpoint adds only what its step
 * bound"): the first is the whole run state (as `sealCheckpoint` seals it), each later one only what
 * the run added since the one before — the messages appended, the bindings made — and the run's
 * other fields, which are small (position, statuses, questions, the secrets learned). Each is sealed
 * on its own, bound to the arguments, with the shapes of the steps it passed (issue 41), so a store
 * appends it as its own value and never rewrites the ones before. A round that takes over opens the
 * whole chain (`open`), and its own checkpoints go on from there.
 *
 * @example
 * ```ts
 * const chain = new CheckpointChain(plan, sealer, binding);
 * const state = chain.open(task.checkpoints, args); // when the task has some
 * host.checkpoint = (reached) => store(chain.seal(reached));
 * ```
 */
export class CheckpointChain {
  private reached?: Reached;

  constructor(
    private readonly plan: WorkflowPlan,
    private readonly sealer: StateSealer,
    private readonly binding: RunBinding,
  ) {}

  /**
   * The next checkpoint of a run: the whole state the first time (or when messages went since the
   * last, which a step never does), else what changed since the last one sealed. A state too large
   * to seal is refused (`ok: false`), and the next delta is taken from the last one that sealed.
   */
  seal(reached: RunState): SealResult {
    const state = reached as ExecutionState;
    const last = this.reached;
    const whole = last === undefined || state.messages.length < last.messages;
    const kept = whole ? sealedState(state) : deltaOf(sealedState(state), last);
    const delta = whole ? undefined : { from: last.messages, ...droppedSince(state, last) };
    // A task stores its arguments once: where the run echoes a large one, the checkpoint refers to it.
    const payload = sealedPayload(state, kept, this.plan, delta === undefined ? {} : { delta }, true);
    const sealed = this.sealer.seal(payload, { ...this.binding, arguments: state.args });
    if (sealed.ok) this.reached = reachedOf(state);
    return sealed;
  }

  /**
   * The run state a chain of checkpoints (oldest first) comes to, for these arguments; the next
   * `seal` adds to it. Throws `SealedStateError` for a checkpoint that is not authentic, expired,
   * foreign, another version's (checked on the last, which passed the most steps), or a chain that
   * does not start with a whole state.
   */
  open(checkpoints: readonly unknown[], args: Args): ExecutionState {
    const payloads = checkpoints.map(
      (sealed) => this.sealer.openState(sealed, { ...this.binding, arguments: args }).payload as SealedExecution,
    );
    if (payloads.length === 0 || payloads[0]?.delta !== undefined) {
      throw new SealedStateError('malformed', 'its checkpoints do not start with a whole run.');
    }
    const fitting = fittingPlan(payloads[payloads.length - 1]!, this.plan, this.binding);
    let folded = openedState(payloads[0]!, fitting, args);
    for (const payload of payloads.slice(1)) folded = applied(folded, openedState(payload, fitting, args), payload.delta!);
    const state = executionOf(folded, fitting, this.plan, args);
    this.reached = reachedOf(state);
    return state;
  }
}

function reachedOf(state: ExecutionState): Reached {
  return { messages: state.messages.length, bindings: new Map(Object.entries(state.bindings)) };
}

/** Of a sealed state, what changed since `last`: the messages after its count, the bindings not the same value; the rest whole. */
function deltaOf(kept: SealedState, last: Reached): SealedState {
  const bindings = ownRecord<unknown>();
  for (const [name, value] of Object.entries(kept.bindings))
    if (last.bindings.get(name) !== value || !last.bindings.has(name)) bindings[name] = value;
  return { ...kept, messages: kept.messages.slice(last.messages), bindings };
}

function droppedSince(state: ExecutionState, last: Reached): { dropped?: string[] } {
  const dropped = [...last.bindings.keys()].filter((name) => !Object.hasOwn(state.bindings, name));
  return dropped.length === 0 ? {} : { dropped };
}

/** `base` with a delta applied: its messages from `from` on and its bindings replaced, its other fields the delta's. */
function applied(base: SealedState, delta: SealedState, { from, dropped }: NonNullable<SealedExecution['delta']>): SealedState {
  if (!Number.isInteger(from) || from < 0 || from > base.messages.length || !Array.isArray(delta.messages)) {
    throw new SealedStateError('malformed', 'its checkpoints do not follow one another.');
  }
  const bindings = Object.assign(ownRecord<unknown>(), base.bindings, delta.bindings);
  for (const name of dropped ?? []) delete bindings[name];
  return { ...delta, messages: [...base.messages.slice(0, from), ...delta.messages], bindings };
}
