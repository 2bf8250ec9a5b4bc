import { z } from 'zod';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';

/** v2: a step inserted before the paused one. */
@Workflow({
  name: 'add_project_task',
  description: 'Add a task',
  arguments: { project: z.string(), task: z.string(), token: z.string() },
  sensitiveArguments: ['token'],
})
export class Inserted {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') }, guidance: 'Finding {project}.' })
  @Bind('pages')
  pages!: unknown;
  @Step({ tool: 'audit', args: { page: promptArg('project') } })
  audited!: unknown;
  @Step({
    tool: 'add_task',
    args: {
      page: askUser('Which page for {task}?', { choices: field('pages', 'names'), attempts: 2 }),
      task: promptArg('task'),
      token: promptArg('token'),
    },
    guidance: 'Adding {task}.',
  })
  @Bind('added')
  added!: unknown;
  @Step({ tool: 'notify', args: { page: field('added', 'page') } })
  notified!: unknown;
}
