/**
 * issue_triage: list a repository's open issues, fetch each one's details four at a time, read the
 * labelling guide of each unlabelled issue's area, and gather the team's load and the milestones
 * side by side — then hand the LLM everything it needs to propose labels and owners.
 * Shows forEach with item() and concurrency, when, transform, parallel, optional and instruction resources.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Bind, Step, TemplateBinding, Workflow, fromStep, item, not, present, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

interface Issue {
  number: number;
  title: string;
  labels: string[];
  area: string;
}

interface IssueDetail extends Issue {
  body: string;
  comments: number;
}

@Workflow({
  name: 'issue_triage',
  description: 'Triage the open issues of a repository: propose labels and an owner for each',
  arguments: { repo: z.string().describe('Repository, as owner/name') },
  instructions: [
    'You are a triage assistant. Propose, never apply: list a label set and an owner per issue, with one line of reasoning each.',
  ],
  resources: ['triage://labelling-policy'],
})
export class IssueTriage {
  @Step({ tool: 'list_issues', args: { repo: promptArg('repo') }, guidance: 'First, the open issues of {repo}.' })
  @Bind('issues')
  issues!: Issue[];

  @Step({
    tool: 'get_issue',
    forEach: fromStep('issues'),
    concurrency: 4,
    args: { repo: promptArg('repo'), number: item('number') },
    guidance: 'Reading #{item.number}: {item.title}.',
    transform: (issue: IssueDetail) => ({ number: issue.number, summary: issue.body.split('\n')[0], comments: issue.comments }),
  })
  @Bind('details')
  details!: { number: number; summary: string; comments: number }[];

  @Step({ resource: 'triage://labelling-guide/{area}', forEach: fromStep('issues'), when: not(present(item('labels'))) })
  @TemplateBinding('area', item('area'))
  @Bind('guides')
  guides!: string[];

  @Step({ tool: 'team_load', parallel: true, args: { repo: promptArg('repo') }, optional: true, guidance: 'Who has room for more work?' })
  @Bind('load')
  load!: Record<string, number>;

  @Step({ tool: 'milestones', parallel: true, args: { repo: promptArg('repo') } })
  @Bind('milestones')
  milestones!: { title: string; due: string }[];
}

const ISSUES: Record<string, IssueDetail[]> = {
  'acme/app': [
    {
      number: 101,
      title: 'Crash when saving an empty file',
      labels: ['bug'],
      area: 'editor',
      body: 'Saving a file with no content throws.\nStack trace attached.',
      comments: 4,
    },
    {
      number: 102,
      title: 'Dark mode for settings',
      labels: [],
      area: 'ui',
      body: 'The settings page ignores the dark theme.',
      comments: 1,
    },
    {
      number: 103,
      title: 'Build takes 10 minutes',
      labels: [],
      area: 'build',
      body: 'CI builds got slow after the last upgrade.\nSee the attached timings.',
      comments: 7,
    },
  ],
};

const GUIDES: Record<string, string> = {
  editor: 'Editor issues: label `editor` plus `bug` or `feature`; owner: the editor team.',
  ui: 'UI issues: label `ui` plus `design` when it needs a mockup; owner: the front-end team.',
  build: 'Build issues: label `build` plus `ci` or `tooling`; owner: the platform team.',
};

/** The issue tracker server: issues, labelling guides, team load, milestones, and the triage workflow. */
export function createIssueTriageServer(): WorkflowServer {
  const server = new WorkflowServer({ name: 'issue-tracker', version: '1.0.0' });
  const issuesOf = (repo: string) => ISSUES[repo] ?? [];

  server.registerTool(
    'list_issues',
    { description: 'List the open issues of a repository', inputSchema: { repo: z.string() } },
    async ({ repo }) => {
      const issues = issuesOf(repo).map(({ number, title, labels, area }) => ({ number, title, labels, area }));
      return { content: [{ type: 'text', text: JSON.stringify(issues) }] };
    },
  );
  server.registerTool(
    'get_issue',
    { description: 'Get one issue with its body and comment count', inputSchema: { repo: z.string(), number: z.number() } },
    async ({ repo, number }) => {
      const issue = issuesOf(repo).find((candidate) => candidate.number === number);
      if (!issue) return { content: [{ type: 'text', text: `No issue #${number} in ${repo}` }], isError: true };
      return { content: [{ type: 'text', text: JSON.stringify(issue) }] };
    },
  );
  server.registerTool(
    'team_load',
    { description: 'Open issues assigned to each maintainer', inputSchema: { repo: z.string() } },
    async () => ({
      content: [{ type: 'text', text: JSON.stringify({ ana: 3, ben: 7, chloe: 1 }) }],
    }),
  );
  server.registerTool('milestones', { description: 'Upcoming milestones', inputSchema: { repo: z.string() } }, async () => ({
    content: [{ type: 'text', text: JSON.stringify([{ title: 'v2.1', due: '2026-12-15' }]) }],
  }));
  server.registerResource(
    'labelling-policy',
    'triage://labelling-policy',
    { description: 'How this team labels issues', mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'text/markdown', text: 'Every issue gets one area label and one kind label (bug, feature, chore).' },
      ],
    }),
  );
  server.registerResource(
    'labelling-guide',
    new ResourceTemplate('triage://labelling-guide/{area}', { list: undefined }),
    { description: 'The labelling guide of one area', mimeType: 'text/markdown' },
    async (uri, { area }) => {
      const text = GUIDES[String(area)];
      if (text === undefined) throw new Error(`No labelling guide for area '${String(area)}'`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );

  return server.use(IssueTriage);
}

if (require.main === module) main('issue-tracker', createIssueTriageServer);
