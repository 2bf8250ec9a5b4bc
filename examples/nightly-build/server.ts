/**
 * nightly_build (MCP tasks, SDK 2.x): a workflow whose tool runs as a task — a client that declares
 * the tasks extension gets a task id at once, polls `tasks/get`, answers the release question with
 * `tasks/update` (or cancels with `tasks/cancel`), and finds the tool's result inlined once the task
 * completes. A client without the extension gets the same tool as a plain call.
 *
 *   node examples/dist/nightly-build/server.js            # over stdio, like every example
 *   PORT=3000 node examples/dist/nightly-build/server.js  # HTTP on 127.0.0.1:3000
 */
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, constant, defineTool, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer, memoryTasks, runOf, serveHttp, serveStdio } from '@mcpflow/core/v2';

export const compile = defineTool(
  'compile',
  { description: 'Compiles a branch', inputSchema: { branch: z.string() }, outputSchema: { artifact: z.string(), warnings: z.number() } },
  async ({ branch }, context) => {
    // A slow step: cancelling the task aborts this signal.
    await sleep(200, undefined, { signal: context.mcpReq?.signal });
    const built = { artifact: `${branch}-nightly.tgz`, warnings: 2 };
    return { content: [{ type: 'text', text: `built ${built.artifact}` }], structuredContent: built };
  },
);

export const runTests = defineTool(
  'run_tests',
  {
    description: 'Runs the test suite on an artifact',
    inputSchema: { artifact: z.string() },
    outputSchema: { passed: z.number(), failed: z.number() },
  },
  async ({ artifact }, context) => {
    await sleep(200, undefined, { signal: context.mcpReq?.signal });
    const report = { passed: 412, failed: 0 };
    return { content: [{ type: 'text', text: `${artifact}: ${report.passed} passed` }], structuredContent: report };
  },
);

/** Where publications go; a run's step publishes once, even when it runs again after a crash (keyed by the run's id and step). */
const published = new Map<string, string>();

export const publish = defineTool(
  'publish',
  { description: 'Publishes an artifact to a channel', inputSchema: { artifact: z.string(), channel: z.string() } },
  async ({ artifact, channel }, context) => {
    const run = runOf(context); // { id, step }: the same for every try of this step of this run
    const key = run ? `${run.id}/${run.step}` : `${artifact}@${channel}`; // the idempotency key
    if (!published.has(key)) published.set(key, `${artifact} to ${channel}`);
    return { content: [{ type: 'text', text: `published ${published.get(key)}` }] };
  },
);

@Workflow({
  name: 'nightly_build',
  description: 'Build a branch, test it, and publish it once someone picks the channel',
  arguments: { branch: z.string().describe('The branch to build') },
  expose: { prompt: false, tool: { task: 'optional' } },
})
export class NightlyBuild {
  @Step({ tool: compile, args: { branch: promptArg('branch') } })
  @Bind('build')
  build!: { artifact: string; warnings: number };

  @Step({ tool: runTests, args: { artifact: field('build', 'artifact') } })
  @Bind('tests')
  tests!: { passed: number; failed: number };

  @Step({
    tool: publish,
    args: {
      artifact: field('build', 'artifact'),
      channel: askUser('Publish {branch} to which channel?', { choices: constant(['beta', 'stable']) }),
    },
  })
  @Bind('published')
  published!: unknown;
}

/** The build server: tasks kept in this process's memory for ten minutes, at most 100 at once. */
const tasks = memoryTasks({ maxTasks: 100, ttlMs: 600_000, pollIntervalMs: 500 });

export function createNightlyBuildServer(): WorkflowServer {
  return new WorkflowServer({ name: 'nightly-build', version: '1.0.0' }, { tasks }).use(NightlyBuild);
}

if (require.main === module) {
  if (process.env.PORT === undefined)
    void serveStdio(createNightlyBuildServer).then(() => console.error('nightly-build serving MCP over stdio (SDK 2.x)'));
  else
    void serveHttp(createNightlyBuildServer, { port: Number(process.env.PORT) }).then((serving) => {
      // On SIGTERM (a deploy, a scale-down) or Ctrl-C: stop taking requests and rounds, and hand the
      // rounds in flight over (with bullmqTasks, another instance goes on from their checkpoints).
      const stop = () => void serving.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      console.error(`nightly-build listening on ${serving.url} (SDK 2.x)`);
    });
}
