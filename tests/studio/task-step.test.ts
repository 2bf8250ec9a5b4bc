import { StudioRun } from '../../packages/studio/src/server/studio-run';

/**
 * A task's running step in the studio (DESIGN §2.15, issue 40): read from `tasks/get`'s
 * `_meta["mcpflow/task"]` (as `TaskDriver` hands it on), not parsed from the status message, which
 * is only shown. The run's step statuses are what its graph and `step` events show.
 */
const steps = [
  { name: 'build', kind: 'tool' },
  { name: 'test', kind: 'tool' },
  { name: 'ship', kind: 'tool', forEach: true },
];

function statuses(run: StudioRun): Record<string, string> {
  return Object.fromEntries(run.view.steps.map((state) => [state.step, state.status]));
}

test('the step `_meta["mcpflow/task"]` names runs, and the steps before it ended', () => {
  const run = new StudioRun('nightly', 'task', steps);
  const told: string[] = [];
  run.subscribe((event) => {
    if (event.type === 'step') told.push(`${(event.data as { step: string }).step}: ${(event.data as { status: string }).status}`);
  });
  run.taskStep({ step: 'build', stepIndex: 0, steps: 3 });
  expect(statuses(run)).toEqual({ build: 'running', test: 'pending', ship: 'pending' });
  run.taskStep({ step: 'ship', stepIndex: 2, steps: 3 });
  expect(statuses(run)).toEqual({ build: 'completed', test: 'completed', ship: 'running' });
  expect(told).toEqual(['build: running', 'ship: running', 'build: completed', 'test: completed']);
});

test('a step the workflow does not have, or none, changes nothing', () => {
  const run = new StudioRun('nightly', 'task', steps);
  run.taskStep({ step: 'deploy', stepIndex: 1, steps: 3 });
  run.taskStep(undefined);
  expect(statuses(run)).toEqual({ build: 'pending', test: 'pending', ship: 'pending' });
});
