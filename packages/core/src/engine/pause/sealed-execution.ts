import type { ExecutionState } from '../execution/execution-state';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { SealedStateError } from '../sealing/sealed-state-error';
import { retried, type SealResult, type StateBinding, type StateSealer } from '../sealing/state-sealer';
import { Redactor } from '../redaction/redactor';
import { planFingerprint } from './plan-fingerprint';

type Args = Readonly<Record<string, string | undefined>>;

/** What a state is bound to besides the arguments: the prompt or tool the client called. */
export type RunBinding = Omit<StateBinding, 'arguments'>;

/** What a paused run's `requestState` holds: its execution state, less what the retry brings again. */
interface SealedExecution {
  readonly plan: string;
  readonly state: Omit<ExecutionState, 'args' | 'workflow'>;
}

/**
 * Seals a paused run for the client to bring back, bound to what the client called (`binding`) and
 * its arguments. The prompt arguments are left out (the retry carries them, and the seal is bound
 * to them), and so are the secrets derived from sensitive arguments: they are learned again from
 * the retry's arguments.
 */
export function sealExecution(state: ExecutionState, plan: WorkflowPlan, sealer: StateSealer, binding: RunBinding): SealResult {
  const { args, workflow: _workflow, ...rest } = state;
  const fromArguments = new Set(argumentSecrets(plan, args));
  const sealed: SealedExecution = {
    plan: planFingerprint(plan),
    state: { ...rest, secrets: rest.secrets.filter((secret) => !fromArguments.has(secret)) },
  };
  return sealer.seal(sealed, { ...binding, arguments: args });
}

/**
 * Opens a paused run's `requestState` for this prompt (or tool: `binding`) and these arguments.
 * Throws `SealedStateError` for a state that is not authentic, expired, foreign, or sealed by
 * another version of the workflow; nothing of the run happens before it opens.
 */
export function openExecution(
  requestState: unknown,
  plan: WorkflowPlan,
  args: Args,
  sealer: StateSealer,
  binding: RunBinding,
): ExecutionState {
  const opened = sealer.open(requestState, { ...binding, arguments: args }) as SealedExecution;
  if (opened?.plan !== planFingerprint(plan)) {
    throw new SealedStateError(
      'stale',
      `it was sealed by another version of workflow '${plan.model.name}'. Retry ${retried(binding)} without requestState to start over.`,
    );
  }
  const state: ExecutionState = {
    ...opened.state,
    workflow: plan.model.name,
    args,
    bindings: withoutPrototype(opened.state.bindings),
    answers: withoutPrototype(opened.state.answers),
  };
  const redactor = new Redactor(state.secrets);
  for (const secret of argumentSecrets(plan, args)) redactor.add(secret);
  return state;
}

/** The redactor entries the sensitive prompt arguments give (raw and JSON-escaped forms). */
function argumentSecrets(plan: WorkflowPlan, args: Args): string[] {
  const secrets: string[] = [];
  const redactor = new Redactor(secrets);
  for (const name of plan.sensitiveArguments) if (args[name] !== undefined) redactor.add(args[name]);
  return secrets;
}

/** JSON objects rebuilt without a prototype, as the executor keeps bindings and answers. */
function withoutPrototype(record: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, record);
}
