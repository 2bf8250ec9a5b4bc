import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createIssueTriageServer } from '../../examples/issue-triage/server';
import { connect } from '../helpers/connect';

const user = (text: string) => ({ role: 'user', content: { type: 'text', text } });
const assistant = (text: string) => ({ role: 'assistant', content: { type: 'text', text } });
const embedded = (uri: string, text: string) => ({
  role: 'user',
  content: { type: 'resource', resource: { uri, mimeType: 'text/markdown', text } },
});

const LISTED = [
  { number: 101, title: 'Crash when saving an empty file', labels: ['bug'], area: 'editor' },
  { number: 102, title: 'Dark mode for settings', labels: [], area: 'ui' },
  { number: 103, title: 'Build takes 10 minutes', labels: [], area: 'build' },
];

test('the issue_triage example: forEach with concurrency, when per issue, parallel and optional steps, instruction resources', async () => {
  const client = await connect(createIssueTriageServer());
  const result = await client.getPrompt({ name: 'issue_triage', arguments: { repo: 'acme/app' } });
  const issue = (number: number, title: string, labels: string[], area: string, body: string, comments: number) =>
    JSON.stringify({ number, title, labels, area, body, comments });
  expect(result.messages).toEqual([
    user('You are a triage assistant. Propose, never apply: list a label set and an owner per issue, with one line of reasoning each.'),
    embedded('triage://labelling-policy', 'Every issue gets one area label and one kind label (bug, feature, chore).'),
    user('Triage the open issues of a repository: propose labels and an owner for each\nArguments:\n- repo: acme/app'),
    assistant(
      'Plan:\n1. issues: call tool list_issues — List the open issues of a repository\n2. details: call tool get_issue — Get one issue with its body and comment count\n' +
        '3. guides: read resource triage://labelling-guide/{area}\n4. load: call tool team_load — Open issues assigned to each maintainer\n5. milestones: call tool milestones — Upcoming milestones',
    ),
    assistant('First, the open issues of acme/app.'),
    assistant('Calling tool list_issues with arguments: {"repo":"acme/app"}'),
    user(`Result of list_issues:\n${JSON.stringify(LISTED)}`),
    assistant('Reading #101: Crash when saving an empty file.'),
    assistant('Calling tool get_issue with arguments: {"repo":"acme/app","number":101}'),
    user(
      `Result of get_issue:\n${issue(101, 'Crash when saving an empty file', ['bug'], 'editor', 'Saving a file with no content throws.\nStack trace attached.', 4)}`,
    ),
    assistant('Reading #102: Dark mode for settings.'),
    assistant('Calling tool get_issue with arguments: {"repo":"acme/app","number":102}'),
    user(`Result of get_issue:\n${issue(102, 'Dark mode for settings', [], 'ui', 'The settings page ignores the dark theme.', 1)}`),
    assistant('Reading #103: Build takes 10 minutes.'),
    assistant('Calling tool get_issue with arguments: {"repo":"acme/app","number":103}'),
    user(
      `Result of get_issue:\n${issue(103, 'Build takes 10 minutes', [], 'build', 'CI builds got slow after the last upgrade.\nSee the attached timings.', 7)}`,
    ),
    assistant('Reading resource triage://labelling-guide/ui'),
    embedded('triage://labelling-guide/ui', 'UI issues: label `ui` plus `design` when it needs a mockup; owner: the front-end team.'),
    assistant('Reading resource triage://labelling-guide/build'),
    embedded('triage://labelling-guide/build', 'Build issues: label `build` plus `ci` or `tooling`; owner: the platform team.'),
    assistant('Who has room for more work?'),
    assistant('Calling tool team_load with arguments: {"repo":"acme/app"}'),
    user('Result of team_load:\n{"ana":3,"ben":7,"chloe":1}'),
    assistant('Calling tool milestones with arguments: {"repo":"acme/app"}'),
    user('Result of milestones:\n[{"title":"v2.1","due":"2026-12-15"}]'),
  ]);
  expect(result._meta?.['mcpflow/execution']).toEqual({
    status: 'completed',
    steps: [
      { name: 'issues', status: 'completed' },
      { name: 'details', status: 'completed', iterations: { count: 3, completed: 3, skipped: 0, failed: 0, cancelled: 0, failures: [] } },
      { name: 'guides', status: 'completed', iterations: { count: 3, completed: 2, skipped: 1, failed: 0, cancelled: 0, failures: [] } },
      { name: 'load', status: 'completed' },
      { name: 'milestones', status: 'completed' },
    ],
  });
  await client.close();
});

test('the issue_triage example serves over stdio as a subprocess', async () => {
  // The compiled example (npm test builds first), as a user's MCP client would launch it.
  const script = path.join(__dirname, '..', '..', 'examples', 'dist', 'issue-triage', 'server.js');
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'pipe' }));
  try {
    const result = await client.getPrompt({ name: 'issue_triage', arguments: { repo: 'acme/unknown' } });
    // No issues: both loops run over an empty array and bind [].
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'completed',
      steps: [
        { status: 'completed' },
        { status: 'completed', iterations: { count: 0 } },
        { status: 'completed', iterations: { count: 0 } },
        {},
        {},
      ],
    });
  } finally {
    await client.close();
  }
});
