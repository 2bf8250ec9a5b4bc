import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askModel, askUser, defineTool, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer, type TaskStore, type WorkflowServerOptions } from '@mcpflow/core/v2';

/** What the tools of these workflows were called with, and what they saw, in order (kept outside the per-request servers). */
export const seen: string[] = [];

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const fetchFigures = defineTool(
  'fetch_figures',
  { description: 'Fetches the figures of a project', inputSchema: { project: z.string() }, outputSchema: { total: z.number() } },
  async ({ project }) => {
    seen.push(`fetch_figures ${project}`);
    return { ...text(`figures of ${project}`), structuredContent: { total: 42 } };
  },
);

const summarize = defineTool('summarize', { description: 'Summarizes figures', inputSchema: { total: z.number() } }, async ({ total }) => {
  seen.push(`summarize ${total}`);
  return { ...text(`the total is ${total}`), structuredContent: { summary: `total ${total}` } };
});

const breakDown = defineTool('break_down', { description: 'Always fails', inputSchema: {} }, async () => {
  seen.push('break_down');
  return { ...text('the data source is down'), isError: true };
});

/** Waits until its request (or task) is cancelled, and says it saw the signal abort. */
const waitForever = defineTool('wait_forever', { description: 'Waits until cancelled', inputSchema: {} }, async (_args, context) => {
  seen.push('wait_forever started');
  const signal = context.mcpReq!.signal!;
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  seen.push('wait_forever aborted');
  return text('stopped');
});

const afterWait = defineTool('after_wait', { description: 'Runs after the wait', inputSchema: {} }, async () => {
  seen.push('after_wait');
  return text('after');
});

const deploy = defineTool(
  'deploy',
  { description: 'Deploys', inputSchema: { project: z.string(), replicas: z.number(), confirm: z.boolean() } },
  async ({ project, replicas, confirm }) => {
    seen.push(`deploy ${project} ${replicas} ${confirm}`);
    return { ...text(confirm ? `deployed ${project} x${replicas}` : 'not deployed'), structuredContent: { deployed: confirm } };
  },
);

@Workflow({
  name: 'report',
  description: 'A report of a project',
  arguments: { project: z.string() },
  expose: { prompt: false, tool: { task: 'optional' } },
})
export class Report {
  @Step({ tool: fetchFigures, args: { project: promptArg('project') } })
  @Bind('figures')
  figures!: { total: number };

  @Step({ tool: summarize, args: { total: field('figures', 'total') } })
  @Bind('summary')
  summary!: unknown;
}

@Workflow({ name: 'broken_report', description: 'A report whose source is down', expose: { prompt: false, tool: { task: 'required' } } })
class BrokenReport {
  @Step({ tool: breakDown })
  @Bind('data')
  data!: unknown;
}

@Workflow({ name: 'long_wait', description: 'Waits, then goes on', expose: { prompt: false, tool: { task: 'optional' } } })
class LongWait {
  @Step({ tool: waitForever })
  @Bind('waited')
  waited!: unknown;

  @Step({ tool: afterWait })
  @Bind('after')
  after!: unknown;
}

@Workflow({
  name: 'guarded_deploy',
  description: 'Deploys once the user says how and confirms',
  arguments: { project: z.string() },
  expose: { prompt: false, tool: { task: 'optional' } },
})
export class GuardedDeploy {
  @Step({ tool: fetchFigures, args: { project: promptArg('project') } })
  @Bind('figures')
  figures!: { total: number };

  @Step({
    tool: deploy,
    args: {
      project: promptArg('project'),
      replicas: askUser('How many replicas?', { schema: z.number() }),
      confirm: askUser('Deploy {project}?', { schema: z.boolean() }),
    },
  })
  @Bind('deployed')
  deployed!: unknown;
}

@Workflow({
  name: 'ask_first',
  description: 'Deploys, asking first',
  arguments: { project: z.string() },
  expose: { prompt: false, tool: { task: 'optional' } },
})
export class AskFirst {
  @Step({
    tool: deploy,
    args: {
      project: promptArg('project'),
      replicas: askUser('How many replicas?', { schema: z.number() }),
      confirm: askUser('Deploy {project}?', { schema: z.boolean() }),
    },
  })
  @Bind('deployed')
  deployed!: unknown;
}

@Workflow({
  name: 'labelled_report',
  description: 'A report, labelled by the model',
  arguments: { project: z.string() },
  expose: { prompt: false, tool: { task: 'optional' } },
})
export class LabelledReport {
  @Step({ tool: fetchFigures, args: { project: promptArg('project') } })
  @Bind('figures')
  figures!: { total: number };

  @Step({ tool: summarize, args: { total: askModel('Which total should the summary show for {project}?', { schema: z.number() }) } })
  @Bind('summary')
  summary!: unknown;
}

/** A server with every workflow above as a task tool, on `store` (default: the process's memoryTasks()). */
export function taskServer(store?: TaskStore, options: WorkflowServerOptions = {}): WorkflowServer {
  return new WorkflowServer({ name: 'task-tests', version: '1.0.0' }, store ? { ...options, tasks: store } : options).use(
    Report,
    BrokenReport,
    LongWait,
    GuardedDeploy,
    AskFirst,
    LabelledReport,
  );
}
