import { McpServer } from '@modelcontextprotocol/server';
import { WorkflowServer } from '@mcpflow/core/v2';
import type { BenchCase } from '../case';
import { chainTool, chainWorkflow, inputSchema } from '../fixtures/chain';
import { staticPrompt } from '../fixtures/static-prompt';
import { stats, sideBySide } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';

const STEPS = 4;

function withToolsAndStatic<S extends McpServer>(server: S): S {
  for (let index = 0; index < STEPS; index += 1)
    server.registerTool(`step_${index}`, { description: `Step ${index}`, inputSchema }, chainTool(index, 0));
  server.registerPrompt(staticPrompt.name, staticPrompt.config, staticPrompt.callback);
  return server;
}

/**
 * What a server per request (stateless 2026-07-28) costs with a workflow: building the server the
 * HTTP benchmark's handler builds per request — 4 tools, a static prompt, and `use()` of the
 * workflow class — against the same server without the workflow. `use()` of a class already seen
 * reuses its checked model and plan; a new class each time (cold) shows what that saves.
 */
export const usePerRequest: BenchCase = {
  name: 'use-per-request',
  async run(options) {
    const Chain = chainWorkflow(STEPS);
    const warmSizes = sized(options, { warmup: 500, rounds: 30, batch: 300 });
    const coldSizes = sized(options, { warmup: 100, rounds: 20, batch: 20 });
    const plain = async () => withToolsAndStatic(new McpServer({ name: 'bench', version: '1.0.0' }));
    const warm = await sideBySide(
      { plain, workflow: async () => withToolsAndStatic(new WorkflowServer({ name: 'bench', version: '1.0.0' })).use(Chain) },
      warmSizes,
    );
    // Classes for the cold runs, defined beforehand: a class is defined once, at load, not per use().
    // Measured apart: checking and planning allocate far more, and their GC would land on the others.
    const fresh = Array.from({ length: coldSizes.warmup + coldSizes.rounds * coldSizes.batch }, () => chainWorkflow(STEPS));
    let next = 0;
    const cold = await sideBySide(
      { plain, cold: async () => withToolsAndStatic(new WorkflowServer({ name: 'bench', version: '1.0.0' })).use(fresh[next++]) },
      coldSizes,
    );
    // Differences within each round, as the ratios elsewhere, by CPU time: the rounds' batches share the machine's state.
    const difference = (a: number[], b: number[]) => stats(a.map((value, round) => value - b[round]));
    const useUs = difference(warm.workflow.rounds.cpu, warm.plain.rounds.cpu);
    const coldUs = difference(cold.cold.rounds.cpu, cold.plain.rounds.cpu);
    return {
      result: { warm, cold, useUs, coldUs },
      figures: [
        {
          benchmark: '9. server per request (SDK 2.x): building it with use() of a 4-step workflow',
          figure:
            `CPU time with use() ${fmt(warm.workflow.cpu.median)} µs / without the workflow ${fmt(warm.plain.cpu.median)} µs: use() adds ${range(useUs, 'µs')} a request (paired by round); ` +
            `use() of a class not seen before (checked and planned) adds ${fmt(coldUs.median)} µs`,
          target: 'reported (no target)',
        },
      ],
    };
  },
};
