import type { WorkflowPlan } from '../../engine';

/**
 * The step a workflow's task round runs (or waits at), value-free: what `tasks/get` carries in
 * `_meta["mcpflow/task"]` while the task is working or waits for input (DESIGN §2.13 "While
 * working"), for a client — the studio's graph — to show it.
 */
export interface RunningStep {
  /** The workflow's name. */
  readonly workflow: string;
  /** The step's name. */
  readonly step: string;
  /** Its index among the workflow's steps, from 0. */
  readonly stepIndex: number;
  /** How many steps the workflow has. */
  readonly steps: number;
  /** The `@Workflow` `version` of the code the round runs on, when it declares one. */
  readonly version?: string;
}

/** What a task round tells as it goes: its `statusMessage` (`step 2 of 4: build`) and the step it names. */
export interface StepStatus {
  readonly message: string;
  readonly step: RunningStep;
}

/**
 * The task's status from a progress text of the engine: `Started step 2 of 4: build` →
 * `step 2 of 4: build`; `Finished item 3 of 10 of step 2 of 4: each` → `step 2 of 4: each, item 3
 * of 10 done`. A step's end says nothing (the next step's start follows it): `undefined`.
 */
export function progressStatus(plan: WorkflowPlan, progress: string): StepStatus | undefined {
  const started = /^Started (step (\d+) of \d+: (.*))$/s.exec(progress);
  if (started) return stepStatus(plan, Number(started[2]) - 1, started[1]);
  const item = /^Finished (item \d+ of \d+) of (step (\d+) of \d+: .*)$/s.exec(progress);
  return item ? stepStatus(plan, Number(item[3]) - 1, `${item[2]}, ${item[1]} done`) : undefined;
}

/** The status of a round whose questions wait at a step (their keys are `<step>/<argument>`). */
export function waitingStatus(plan: WorkflowPlan, inputRequests: Readonly<Record<string, unknown>>): StepStatus | undefined {
  const [key] = Object.keys(inputRequests);
  const step = key === undefined ? undefined : plan.steps.find((each) => key.startsWith(`${each.model.name}/`));
  return step && stepStatus(plan, step.index, `step ${step.index + 1} of ${plan.steps.length}: ${step.model.name}`);
}

/** The status of a round about to start the step at `index` (`step 2 of 4: build`), as its progress will tell it. */
export function startingStatus(plan: WorkflowPlan, index: number): StepStatus | undefined {
  const planned = plan.steps[index];
  return planned && stepStatus(plan, index, `step ${index + 1} of ${plan.steps.length}: ${planned.model.name}`);
}

function stepStatus(plan: WorkflowPlan, index: number, message: string): StepStatus | undefined {
  const planned = plan.steps[index];
  if (!planned) return undefined;
  const { name, version } = plan.model;
  const step = { workflow: name, step: planned.model.name, stepIndex: index, steps: plan.steps.length };
  return { message, step: version === undefined ? step : { ...step, version } };
}
