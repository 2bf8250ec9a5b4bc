import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';

/**
 * The add_project_task example's workflow with its tools named by string, so a test can register
 * tools of its own under those names (and count their calls); a prompt and a tool of that name.
 */
@Workflow({
  name: 'add_project_task',
  description: 'Add a task to a project, matching the project name loosely',
  arguments: { project: z.string().describe('Project name (may be approximate)'), task: z.string().describe('What needs doing') },
  expose: { tool: true },
})
export class AddProjectTaskByName {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') }, guidance: "I'll find the project pages matching '{project}'." })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add_task',
    args: {
      project: askUser("Which project page should '{task}' go on?", { choices: field('pages', 'names'), title: 'Project page' }),
      task: promptArg('task'),
    },
  })
  @Bind('added')
  added!: { ok: boolean; page: string };
}
