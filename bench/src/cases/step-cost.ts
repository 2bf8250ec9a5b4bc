import type { BenchCase, Figure } from '../case';
import type { PromptClient } from '../engine-overhead';
import { baselineServer, inMemoryClient, workflowServer } from '../fixtures/servers-v1';
import { baselineServerV2, inMemoryClientV2, workflowServerV2 } from '../fixtures/servers-v2';
import { sideBySide, stats, type Stats } from '../measure';
import { fmt } from '../report';
import { sized, type RunOptions } from '../run-options';
import { assertSameTrace } from '../same-trace';

/** The two chain lengths whose difference gives the cost of one more step. */
const SHORT = 1;
const LONG = 8;

const REQUEST = { method: 'prompts/get', params: { name: 'chain', arguments: { input: 'hello' } } };

/** What one more tool step costs, and what a run costs besides its steps, on one side (µs of CPU time, medians of the rounds). */
interface StepCost {
  step: Stats;
  run: Stats;
}

/** A server as this case reaches it: the SDK's request handlers (a private field of both lines' Protocol), and its client. */
interface Served extends PromptClient {
  readonly server: { readonly server: unknown };
}

/** A server of either line and its connected client, as one `Served`. */
async function served<S extends { server: unknown }>(server: S, connect: (server: S) => Promise<PromptClient>): Promise<Served> {
  const client = await connect(server);
  return { server, getPrompt: (request) => client.getPrompt(request), close: () => client.close() };
}

type Handler = (request: unknown, context: unknown) => Promise<{ messages: unknown[] }>;

/**
 * The server's own `prompts/get` handler, called in process with the context of a real request
 * (caught as the client sends one): the server's side alone, without the client and transport
 * whose cost is the same on both sides and whose noise hides a step's few µs.
 */
async function serverSide({ server, getPrompt }: Served): Promise<() => Promise<{ messages: unknown[] }>> {
  const handlers = (server.server as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const handler = handlers?.get('prompts/get');
  if (!handlers || !handler) throw new Error("the SDK's Protocol no longer keeps _requestHandlers: update bench/src/cases/step-cost.ts");
  let context: unknown;
  handlers.set('prompts/get', (request, caught) => {
    context = caught;
    return handler(request, caught);
  });
  await getPrompt(REQUEST.params);
  handlers.set('prompts/get', handler);
  return () => handler(REQUEST, context);
}

/**
 * Splits the engine case's difference into what each tool step adds and what a run adds besides
 * its steps, on the server's side: the workflow and the hand-written prompt at 1 and at 8 steps,
 * all four interleaved in one process (each round one batch of each), by CPU time. Within a
 * round, one more step is (8 steps − 1 step) ÷ 7 and a run besides its steps is the 1-step run
 * less one step; each is the median over the rounds. Reported, not judged: it says where to look
 * when the engine case moves.
 */
async function stepCost(
  options: RunOptions,
  serve: (kind: 'workflow' | 'baseline', steps: number) => Promise<Served>,
): Promise<{ workflow: StepCost; baseline: StepCost }> {
  const calls: Record<string, () => Promise<{ messages: unknown[] }>> = {};
  const served: Served[] = [];
  for (const steps of [SHORT, LONG]) {
    const [workflowServed, baselineServed] = [await serve('workflow', steps), await serve('baseline', steps)];
    served.push(workflowServed, baselineServed);
    const workflow = await serverSide(workflowServed);
    const baseline = await serverSide(baselineServed);
    const [a, b] = await Promise.all([workflow(), baseline()]);
    assertSameTrace(a, b, `the ${steps}-step workflow and its baseline`);
    calls[`workflow${steps}`] = workflow;
    calls[`baseline${steps}`] = baseline;
  }
  const measured = await sideBySide(calls, sized(options, { warmup: 5000, rounds: 60, batch: 300 }));
  await Promise.all(served.map((each) => each.close()));
  const side = (name: 'workflow' | 'baseline'): StepCost => {
    const short = measured[`${name}${SHORT}`].rounds.cpu;
    const long = measured[`${name}${LONG}`].rounds.cpu;
    const steps = long.map((value, round) => (value - short[round]) / (LONG - SHORT));
    return { step: stats(steps), run: stats(short.map((value, round) => value - steps[round] * SHORT)) };
  };
  return { workflow: side('workflow'), baseline: side('baseline') };
}

/** Issue 28's gate on one more tool step, workflow ÷ hand-written; a run besides its steps is reported. */
const STEP_TARGET = 1.6;

function figures(line: string, { workflow, baseline }: { workflow: StepCost; baseline: StepCost }): Figure[] {
  const row = (what: string, contender: Stats, hand: Stats): Figure => ({
    benchmark: `14. ${what}, ${line} (server side, µs of CPU time)`,
    figure: `workflow ${fmt(contender.median, 2)} / hand-written ${fmt(hand.median, 2)} = ${fmt(contender.median / hand.median, 2)}`,
    target: 'reported (where the engine case spends its difference)',
  });
  const step = row('one more tool step', workflow.step, baseline.step);
  const ratio = workflow.step.median / baseline.step.median;
  return [
    { ...step, target: `ratio ≤ ${STEP_TARGET}`, met: ratio <= STEP_TARGET },
    row('a run besides its steps', workflow.run, baseline.run),
  ];
}

/** `step-cost`: one more step and a run besides its steps, workflow against hand-written, on each SDK line. */
export const stepCostCase: BenchCase = {
  name: 'step-cost',
  async run(options) {
    const v1 = await stepCost(options, (kind, steps) =>
      served(kind === 'workflow' ? workflowServer(steps) : baselineServer(steps), inMemoryClient),
    );
    const v2 = await stepCost(options, (kind, steps) =>
      served(kind === 'workflow' ? workflowServerV2(steps) : baselineServerV2(steps), inMemoryClientV2),
    );
    return { result: { v1, v2 }, figures: [...figures('SDK 1.x', v1), ...figures('SDK 2.x', v2)] };
  },
};
