import { z } from 'zod';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';

/** v2: other guidance and description, a timeout and retries, and a later step changed. */
@Workflow({
  name: 'add_project_task',
  description: 'Adds a task to a project page',
  arguments: { project: z.string(), task: z.string(), token: z.string() },
  sensitiveArguments: ['token'],
})
export class Reworded {
  @Step({
    tool: 'list_pages',
    args: { query: promptArg('project') },
    guidance: 'Looking for the pages of {project}.',
    timeoutMs: 5000,
    retry: { attempts: 3 },
  })
  @Bind('pages')
  pages!: unknown;
  @Step({
    tool: 'add_task',
    args: {
      page: askUser('Which page for {task}?', { choices: field('pages', 'names'), attempts: 2 }),
      task: promptArg('task'),
      token: promptArg('token'),
    },
    guidance: 'Now adding {task}.',
  })
  @Bind('added')
  added!: unknown;
  @Step({ tool: 'audit', args: { page: field('added', 'page') } })
  audited!: unknown;
}
