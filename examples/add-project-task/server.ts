/**
 * add_project_task (hybrid): the server lists the project pages itself, then hands off to the
 * client's LLM, which must pick the page that best matches a loose project name and format the
 * task — with the task-format guide embedded so it does not have to go looking for it. The tools
 * are definitions; `add_task`'s inputs are left unmapped on purpose: the LLM decides them.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, defineTool } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

const PAGES = ['Website Redesign', 'Mobile App', 'MCP Tester', 'Blog'];

export const listPages = defineTool('list_pages', { description: 'List all project pages', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ pages: PAGES }) }],
}));

export const addTask = defineTool(
  'add_task',
  {
    description: 'Add a task to a project page',
    inputSchema: {
      project: z.string().describe('Exact page name, as list_pages returns it'),
      task: z.string().describe('The task, formatted as docs://task-format says'),
    },
  },
  async ({ project }) => {
    if (!PAGES.includes(project)) return { content: [{ type: 'text', text: `No page named '${project}'` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify({ ok: true, page: project }) }] };
  },
);

@Workflow({
  name: 'add_project_task',
  description: 'Add a task to a project, matching the project name loosely',
  arguments: {
    project: z.string().describe('Project name (may be approximate)'),
    task: z.string().describe('What needs doing'),
  },
})
export class AddProjectTask {
  @Step({ tool: listPages, guidance: "I'll first get all available project pages." })
  @Bind('pages')
  pages!: { pages: string[] };

  @Step({
    tool: addTask,
    resources: ['docs://task-format'],
    guidance:
      "I'll now:\n1. Find the page from the list that best matches '{project}'\n2. Format '{task}' following the guide below\n3. Call add_task with that page and the formatted task",
  })
  @Bind('added')
  added!: { ok: boolean; page: string };
}

const TASK_FORMAT = '# Task format\n- Start with a verb in the imperative: "Fix", "Add", "Write".\n- At most 80 characters.\n- End with the tag #todo.';

/** The project server: the task-format guide and the hybrid workflow, and through it the pages and tasks tools. */
export function createAddProjectTaskServer(): WorkflowServer {
  const server = new WorkflowServer({ name: 'projects', version: '1.0.0' });

  server.registerResource('task-format', 'docs://task-format', { mimeType: 'text/markdown', description: 'How to write a task' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: TASK_FORMAT }],
  }));

  return server.use(AddProjectTask);
}

if (require.main === module) main('projects', createAddProjectTaskServer);
