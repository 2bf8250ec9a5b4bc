/**
 * add_project_task: the server finds the project pages matching a loose name itself. When one page
 * matches, it adds the task straight away; when several do, it asks the user which one
 * (`askUser` with the matches as choices) and completes on the server with the answer. On a 2025
 * session the question goes out during the request; on protocol 2026-07-28 the run pauses with
 * `input_required` and resumes on the client's retry — in the same process, as this example sets no
 * `pause.keys`; give every instance the same keys to resume on any of them.
 * The tools are definitions.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, defineTool, field, promptArg } from '@mcpflow/decorators';
import type { WorkflowServer } from '@mcpflow/core/v1';
import { main } from '../serve';
import { loadSdkLine, type SdkLine } from '../sdk-line';

const PAGES = ['Website Redesign', 'Mobile App', 'MCP Tester', 'MCP Tester (archive)', 'Blog'];

/** Every word of the query appears in the page name, ignoring case. */
function matches(page: string, query: string): boolean {
  const name = page.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => name.includes(word));
}

export const listPages = defineTool(
  'list_pages',
  {
    description: 'List the project pages whose name contains every word of the query',
    inputSchema: { query: z.string().optional() },
    outputSchema: { names: z.array(z.string()) },
  },
  async ({ query }) => {
    const names = PAGES.filter((page) => query === undefined || matches(page, query));
    return { content: [{ type: 'text', text: JSON.stringify({ names }) }], structuredContent: { names } };
  },
);

export const addTask = defineTool(
  'add_task',
  {
    description: 'Add a task to a project page',
    inputSchema: {
      project: z.string().describe('Exact page name, as list_pages returns it'),
      task: z.string().describe('What needs doing'),
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
  @Step({ tool: listPages, args: { query: promptArg('project') }, guidance: "I'll find the project pages matching '{project}'." })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: addTask,
    args: {
      project: askUser("Which project page should '{task}' go on?", { choices: field('pages', 'names'), title: 'Project page' }),
      task: promptArg('task'),
    },
  })
  @Bind('added')
  added!: { ok: boolean; page: string };
}

/** The project server: the workflow, and through it the pages and tasks tools. */
export function createAddProjectTaskServer(line: SdkLine = loadSdkLine()): WorkflowServer {
  return new line.WorkflowServer({ name: 'projects', version: '1.0.0' }).use(AddProjectTask);
}

if (require.main === module) main('projects', createAddProjectTaskServer);
