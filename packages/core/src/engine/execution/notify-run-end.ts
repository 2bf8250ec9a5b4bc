import type { Redactor } from '../redaction/redactor';
import type { ExecutionState } from './execution-state';
import type { WorkflowHooks } from './step-events';

/**
 * Calls `onRunEnd` with the run's status and its bindings, redacted by every secret of the run
 * (call it once the result is built, when the redactor knows them all); a hook that throws is
 * reported on stderr and never changes the result.
 */
export async function notifyRunEnd(hooks: WorkflowHooks, state: ExecutionState, redactor: Redactor): Promise<void> {
  if (!hooks.onRunEnd) return;
  try {
    // Each output is a step's data: its keys are redacted too; the binding names are the declaration's.
    const outputs = Object.fromEntries(Object.entries(state.bindings).map(([name, value]) => [name, redactor.redactData(value)]));
    await hooks.onRunEnd({ workflow: state.workflow, status: state.stop ? state.stop.status : 'completed', outputs });
  } catch (error) {
    console.error(`mcpflow: onRunEnd hook threw for workflow '${state.workflow}':`, error);
  }
}
