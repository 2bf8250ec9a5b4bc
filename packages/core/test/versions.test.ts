import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWorkflowModel } from '../src/model/read-workflow';
import { stepShape, workflowShapes } from '../src/model';
import {
  continueWorkflowRound,
  executeWorkflowRound,
  openCheckpoint,
  planWorkflow,
  sealCheckpoint,
  type RoundResult,
  type PromptResult,
} from '../src/engine';
import { Appended } from './versions/appended';
import { Inserted } from './versions/inserted';
import { InsertedKeepingV1 } from './versions/inserted-keeping-v1';
import { RenamedPrevious } from './versions/renamed-previous';
import { WorkflowPlans } from '../src/adapter-kit/catalog/workflow-plans';
import { Reworded } from './versions/reworded';
import { AddProjectTaskV1, accept, fixtureArgs as args, fixturePausing, rounds, versionsHost } from './versions-workflow';

/** DESIGN §2.16: a state sealed by one version of a workflow resumes in a later one whose steps up to its position match. */

const noTemplates = () => {
  throw new Error('no URI templates here');
};
const plan = (workflow: new () => unknown) => planWorkflow(readWorkflowModel(workflow)!, noTemplates);

function inputRequired(round: RoundResult): Extract<RoundResult, { kind: 'input-required' }> {
  if (round.kind !== 'input-required') throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  return round;
}
function result(round: RoundResult): PromptResult {
  if (round.kind !== 'result') throw new Error('expected a result, got input_required');
  return round.result;
}

/** Pauses a run of v1 at its question, then answers it on `next`: the tools the resumed round called. */
async function pauseThenResume(next: new () => unknown): Promise<string[]> {
  const pausing = fixturePausing();
  const { requestState } = inputRequired(await executeWorkflowRound(plan(AddProjectTaskV1), args, versionsHost(rounds(), []), {}, pausing));
  const calls: string[] = [];
  const resumed = result(
    await executeWorkflowRound(
      plan(next),
      args,
      versionsHost(rounds({ 'added/page': accept('MCP Tester') }), calls),
      {},
      pausing,
      requestState,
    ),
  );
  expect(resumed._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  return calls;
}

describe('a paused run resumes in a compatible version of its workflow', () => {
  test('a step appended after the paused one runs on resume, after the rest', async () => {
    expect(await pauseThenResume(Appended)).toEqual(['add_task', 'notify', 'audit']);
  });

  test('changed guidance, description, timeouts, retries and later steps do not refuse it', async () => {
    expect(await pauseThenResume(Reworded)).toEqual(['add_task', 'audit']);
  });

  test('a step inserted before the paused one refuses it, naming the workflow and the step it waited at, and runs nothing', async () => {
    await expect(pauseThenResume(Inserted)).rejects.toMatchObject({
      problem: 'stale',
      message: expect.stringMatching(/another version of workflow 'add_project_task', waiting at step 'added'.*previous/),
    });
  });

  test("a task's checkpoint goes on in a version with a step appended", async () => {
    const v1 = plan(AddProjectTaskV1);
    const { sealer } = fixturePausing();
    const binding = { prompt: 'add_project_task', face: 'tool' as const };
    const checkpoints: string[] = [];
    const host = versionsHost(rounds(), [], (state) => {
      const sealed = sealCheckpoint(state, v1, sealer, binding);
      if (sealed.ok) checkpoints.push(sealed.state);
    });
    inputRequired(await executeWorkflowRound(v1, args, host, {}, fixturePausing()));
    // The checkpoint after the first step, as a task store keeps it while the task waits for its answer.
    const checkpoint = checkpoints.at(-1)!;
    const v2 = plan(Appended);
    const calls: string[] = [];
    const state = openCheckpoint(checkpoint, v2, args, sealer, binding);
    expect(state.position).toBe(1);
    // It goes on from the second step: its question is put again (the first step is not run again)…
    const asked = inputRequired(await continueWorkflowRound(v2, versionsHost(rounds(), calls), {}, sealer, binding, state));
    expect(Object.keys(asked.inputRequests)).toEqual(['added/page']);
    expect(calls).toEqual([]);
    // …and once answered runs v2's steps, the appended one too.
    const answered = rounds({ 'added/page': accept('MCP Tester') });
    const done = result(
      await executeWorkflowRound(v2, args, versionsHost(answered, calls), {}, fixturePausing(), asked.requestState, binding),
    );
    expect(calls).toEqual(['add_task', 'notify', 'audit']);
    expect(done._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(() => openCheckpoint(checkpoint, plan(Inserted), args, sealer, binding)).toThrow(/waiting at step 'added'/);
  });
});

describe("a step's shape", () => {
  test('is its name, action, binding and question keys; not its guidance, timeout or retries', () => {
    const [v1, reworded] = [readWorkflowModel(AddProjectTaskV1)!, readWorkflowModel(Reworded)!];
    expect(workflowShapes(v1).slice(0, 2)).toEqual(workflowShapes(reworded).slice(0, 2));
    expect(JSON.parse(stepShape(v1.steps[1]!))).toEqual(['added', 'tool', 'add_task', 'added', ['added/page']]);
    expect(stepShape(v1.steps[2]!)).not.toEqual(stepShape(reworded.steps[2]!));
  });
});

describe('states sealed by mcpflow before versions (format 2) still open', () => {
  const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures/sealed-before-versions.json'), 'utf8')) as {
    promptPause: { binding: { prompt: string }; requestState: string };
    taskCheckpoint: { binding: { prompt: string; face: 'tool' }; state: string };
  };

  test('a paused prompt run resumes where it waited', async () => {
    const calls: string[] = [];
    const resumed = result(
      await executeWorkflowRound(
        plan(AddProjectTaskV1),
        args,
        versionsHost(rounds({ 'added/page': accept('MCP Tester') }), calls),
        {},
        fixturePausing(),
        fixture.promptPause.requestState,
        fixture.promptPause.binding,
      ),
    );
    expect(calls).toEqual(['add_task', 'notify']);
    expect(resumed._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  });

  test("a task's checkpoint goes on from its step", async () => {
    const { sealer } = fixturePausing();
    const v1 = plan(AddProjectTaskV1);
    const state = openCheckpoint(fixture.taskCheckpoint.state, v1, args, sealer, fixture.taskCheckpoint.binding);
    // Sealed as the task started, before its first step.
    expect(state.position).toBe(0);
    const calls: string[] = [];
    const round = inputRequired(
      await continueWorkflowRound(v1, versionsHost(rounds(), calls), {}, sealer, fixture.taskCheckpoint.binding, state),
    );
    expect(Object.keys(round.inputRequests)).toEqual(['added/page']);
    expect(calls).toEqual(['list_pages']);
  });
});

describe("states sealed by this release (format 3, fixtures/seal-fixtures.cjs) open in today's code", () => {
  const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures/sealed-by-this-release.json'), 'utf8')) as {
    promptPause: { binding: { prompt: string }; requestState: string };
    toolPause: { binding: { prompt: string; face: 'tool' }; requestState: string };
    taskCheckpoint: { binding: { prompt: string; face: 'tool' }; state: string };
  };

  test.each([
    ['a paused prompt run', 'promptPause', AddProjectTaskV1, ['add_task', 'notify']],
    ["a run paused through the tool face (a task's input_required state)", 'toolPause', AddProjectTaskV1, ['add_task', 'notify']],
    ['a paused prompt run, in a version with a step appended', 'promptPause', Appended, ['add_task', 'notify', 'audit']],
  ] as const)('%s resumes where it waited', async (_label, which, version, ran) => {
    const { binding, requestState } = fixture[which];
    const calls: string[] = [];
    const answered = versionsHost(rounds({ 'added/page': accept('MCP Tester') }), calls);
    const resumed = result(await executeWorkflowRound(plan(version), args, answered, {}, fixturePausing(), requestState, binding));
    expect(calls).toEqual(ran);
    expect(resumed._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed', rounds: 1 });
  });

  test("a task's checkpoint after its first step goes on from the second", async () => {
    const { sealer } = fixturePausing();
    const v1 = plan(AddProjectTaskV1);
    const { binding, state: sealed } = fixture.taskCheckpoint;
    const state = openCheckpoint(sealed, v1, args, sealer, binding);
    expect(state.position).toBe(1);
    const calls: string[] = [];
    const round = inputRequired(await continueWorkflowRound(v1, versionsHost(rounds(), calls), {}, sealer, binding, state));
    expect(Object.keys(round.inputRequests)).toEqual(['added/page']);
    expect(calls).toEqual([]);
  });

  test('a state of this release is refused by a version that changed a step before it, naming the step it waited at', () => {
    const { sealer } = fixturePausing();
    const { binding, state } = fixture.taskCheckpoint;
    expect(() => openCheckpoint(state, plan(Inserted), args, sealer, binding)).toThrow(/waiting at step 'added'/);
  });
});

describe('@Workflow({ previous }): an incompatible change keeps the old class', () => {
  const plans = WorkflowPlans.of(noTemplates);

  test('a run paused on v1 resumes on v1 kept in previous, and a new run starts on v2', async () => {
    const { errors } = plans.check([InsertedKeepingV1]);
    expect(errors).toEqual([]);
    const v2 = plans.plan(InsertedKeepingV1);
    const pausing = fixturePausing();
    const { requestState } = inputRequired(
      await executeWorkflowRound(plan(AddProjectTaskV1), args, versionsHost(rounds(), []), {}, pausing),
    );
    const calls: string[] = [];
    const answered = versionsHost(rounds({ 'added/page': accept('MCP Tester') }), calls);
    result(await executeWorkflowRound(v2, args, answered, {}, pausing, requestState));
    // v1's remaining steps: not v2's inserted audit step.
    expect(calls).toEqual(['add_task', 'notify']);

    const fresh: string[] = [];
    inputRequired(await executeWorkflowRound(v2, args, versionsHost(rounds(), fresh), {}, pausing));
    expect(fresh).toEqual(['list_pages', 'audit']);
  });

  test('a run that paused again on v1 after resuming there resumes on v1 again', async () => {
    plans.check([InsertedKeepingV1]);
    const v2 = plans.plan(InsertedKeepingV1);
    const pausing = fixturePausing();
    const { requestState } = inputRequired(
      await executeWorkflowRound(plan(AddProjectTaskV1), args, versionsHost(rounds(), []), {}, pausing),
    );
    // A wrong answer (not one of the choices) is asked again: the run pauses a second time, on v1.
    const again = inputRequired(
      await executeWorkflowRound(v2, args, versionsHost(rounds({ 'added/page': accept('Nope') }), []), {}, pausing, requestState),
    );
    const calls: string[] = [];
    const answered = versionsHost(rounds({ 'added/page': accept('MCP Tester') }), calls);
    result(await executeWorkflowRound(v2, args, answered, {}, pausing, again.requestState));
    expect(calls).toEqual(['add_task', 'notify']);
  });

  test('a previous class of another workflow is refused with what to do', () => {
    const { errors } = plans.check([RenamedPrevious]);
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      [91070, expect.stringContaining("class AddProjectTaskV1 in previous is workflow 'add_project_task', not 'add_task_v3'.")],
    ]);
  });
});
