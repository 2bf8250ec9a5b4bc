import { createAddProjectTaskServer } from '../examples/add-project-task/server';
import { createCodeReviewServer } from '../examples/code-review/server';
import { createGetHintServer } from '../examples/get-hint/server';
import { createQuarterlyReportServer } from '../examples/quarterly-report/server';
import type { SdkLine } from '../examples/sdk-line';
import { MATRIX, protocolMeta, type TestClient, type TestServer } from './helpers/lines';

const user = (text: string) => ({ role: 'user', content: { type: 'text', text } });
const assistant = (text: string) => ({ role: 'assistant', content: { type: 'text', text } });
const embedded = (uri: string, mimeType: string, text: string) => ({
  role: 'user',
  content: { type: 'resource', resource: { uri, mimeType, text } },
});

/** `_meta["mcpflow/workflow"]` of a workflow whose steps run one after another (every example's prompt entry carries one). */
const chain = (name: string, steps: [string, 'tool' | 'resource'][]) => ({
  'mcpflow/workflow': {
    name,
    steps: steps.map(([step, kind]) => ({ name: step, kind })),
    mermaid: [
      'flowchart TD',
      `  start(["${name}"])`,
      ...steps.map(([step], index) => `  s${index}["${step}"]`),
      ...steps.map((_, index) => `  ${index === 0 ? 'start' : `s${index - 1}`} --> s${index}`),
    ].join('\n'),
  },
});

describe.each(MATRIX)('the example servers through a real client: $label', ({ line, transport }) => {
  const clients: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  const open = async (create: (line: SdkLine) => TestServer) => {
    const client = await line.connect(() => create(line), { transport });
    clients.push(client);
    return client;
  };

  test('prompts/list shows every example workflow with its arguments, descriptions, steps and graph', async () => {
    const listed = await Promise.all(
      [createCodeReviewServer, createGetHintServer, createAddProjectTaskServer, createQuarterlyReportServer].map(
        async (create) => (await (await open(create)).listPrompts()).prompts,
      ),
    );
    expect(listed.flat()).toEqual([
      {
        name: 'code_review',
        description: 'Review source code: analyze it, review the findings, and annotate the code',
        arguments: [
          { name: 'code', description: 'Source code to review', required: true },
          { name: 'language', description: 'Programming language (default: typescript)', required: false },
        ],
        _meta: chain('code_review', [
          ['analysis', 'tool'],
          ['review', 'tool'],
          ['report', 'tool'],
        ]),
      },
      {
        name: 'get_hint',
        description: 'Get a contextual hint for the current game',
        arguments: [
          { name: 'player', description: 'Player id', required: true },
          { name: 'style', description: 'Hint style, e.g. gentle or direct', required: false },
        ],
        _meta: chain('get_hint', [
          ['progress', 'tool'],
          ['walkthrough', 'resource'],
        ]),
      },
      {
        name: 'add_project_task',
        description: 'Add a task to a project, matching the project name loosely',
        arguments: [
          { name: 'project', description: 'Project name (may be approximate)', required: true },
          { name: 'task', description: 'What needs doing', required: true },
        ],
        _meta: chain('add_project_task', [
          ['pages', 'tool'],
          ['added', 'tool'],
        ]),
      },
      {
        name: 'quarterly_report',
        description: 'Build the sales report of a quarter',
        arguments: [{ name: 'quarter', description: 'Quarter, such as 2026-Q3', required: true }],
        _meta: chain('quarterly_report', [
          ['sales', 'tool'],
          ['metrics', 'tool'],
          ['report', 'tool'],
        ]),
      },
    ]);
  });

  test('code_review runs its three tool steps, chaining field() and constant()', async () => {
    const client = await open(createCodeReviewServer);
    const result = await client.getPrompt({ name: 'code_review', arguments: { code: 'let x: any = 1;', language: 'ts' } });
    const summary = '1 line(s) of ts; 1 issue(s): Uses the any type';
    const recommendations = [`Check security: ${summary}`, `Check performance: ${summary}`];
    expect(result.description).toBe('Review source code: analyze it, review the findings, and annotate the code');
    expect(result.messages).toEqual([
      user(
        'Review source code: analyze it, review the findings, and annotate the code\nArguments:\n- code: let x: any = 1;\n- language: ts',
      ),
      assistant(
        'Plan:\n1. analysis: call tool analyze_code — Analyze source code for size and common issues\n' +
          '2. review: call tool review_code — Turn an analysis into review recommendations\n' +
          '3. report: call tool format_results — Annotate the code with the review recommendations',
      ),
      assistant("I'll analyze the code first, then review the findings and annotate the code."),
      assistant('Calling tool analyze_code with arguments: {"code":"let x: any = 1;","language":"ts"}'),
      user(`Result of analyze_code:\n{"language":"ts","lines":1,"summary":"${summary}","issues":["Uses the any type"]}`),
      assistant(`Calling tool review_code with arguments: {"summary":"${summary}","focus":["security","performance"]}`),
      user(`Result of review_code:\n${JSON.stringify({ recommendations, approval: 'conditional' })}`),
      assistant(`Calling tool format_results with arguments: ${JSON.stringify({ code: 'let x: any = 1;', issues: recommendations })}`),
      user(
        `Result of format_results:\n${JSON.stringify({ annotated: `// TODO 1: ${recommendations[0]}\n// TODO 2: ${recommendations[1]}\n\nlet x: any = 1;`, count: 2 })}`,
      ),
    ]);
    expect(result._meta).toEqual({
      ...protocolMeta(transport, { name: 'code-review', version: '1.0.0' }),
      'mcpflow/execution': {
        status: 'completed',
        steps: [
          { name: 'analysis', status: 'completed' },
          { name: 'review', status: 'completed' },
          { name: 'report', status: 'completed' },
        ],
      },
    });
  });

  test('code_review leaves an absent optional argument out, and the tool applies its default', async () => {
    const client = await open(createCodeReviewServer);
    const result = await client.getPrompt({ name: 'code_review', arguments: { code: 'ok()' } });
    expect(result.messages[0]).toEqual(
      user('Review source code: analyze it, review the findings, and annotate the code\nArguments:\n- code: ok()'),
    );
    expect(result.messages[3]).toEqual(assistant('Calling tool analyze_code with arguments: {"code":"ok()"}'));
    expect(result.messages[4]).toEqual(
      user(
        'Result of analyze_code:\n{"language":"typescript","lines":1,"summary":"1 line(s) of typescript; 0 issue(s): none","issues":[]}',
      ),
    );
  });

  test('get_hint reads the walkthrough through a URI filled from the first step', async () => {
    const client = await open(createGetHintServer);
    const result = await client.getPrompt({ name: 'get_hint', arguments: { player: 'alice' } });
    expect(result.messages).toEqual([
      user('You are a friendly game master: hint at the next move, never spoil the ending.'),
      user('Get a contextual hint for the current game\nArguments:\n- player: alice'),
      assistant(
        "Plan:\n1. progress: call tool get_my_progress — Get a player's current game, room and move count\n" +
          '2. walkthrough: read resource if://walkthrough/{game_id}',
      ),
      assistant("I'll check alice's progress first."),
      assistant('Calling tool get_my_progress with arguments: {"player":"alice"}'),
      user('Result of get_my_progress:\n{"game_id":"zork1","room":"West of House","moves":3}'),
      assistant('Now the walkthrough of that game, to find the next step.'),
      assistant('Reading resource if://walkthrough/zork1'),
      embedded(
        'if://walkthrough/zork1',
        'text/markdown',
        '# Zork I\n1. Open the mailbox.\n2. Read the leaflet.\n3. Go north, then east to the window.',
      ),
    ]);
    expect(result._meta).toEqual({
      ...protocolMeta(transport, { name: 'interactive-fiction', version: '1.0.0' }),
      'mcpflow/execution': {
        status: 'completed',
        steps: [
          { name: 'progress', status: 'completed' },
          { name: 'walkthrough', status: 'completed' },
        ],
      },
    });
  });

  test('add_project_task finds the matching pages on the server; a client that cannot be asked which one gets a handoff naming the question', async () => {
    const client = await open(createAddProjectTaskServer);
    const result = await client.getPrompt({ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'fix the login bug' } });
    const reason = `the client does not accept questions (elicitation), so it was not asked "Which project page should 'fix the login bug' go on?" (choices: MCP Tester, MCP Tester (archive))`;
    expect(result.messages).toEqual([
      user('Add a task to a project, matching the project name loosely\nArguments:\n- project: mcp tester\n- task: fix the login bug'),
      assistant(
        'Plan:\n1. pages: call tool list_pages — List the project pages whose name contains every word of the query\n2. added: call tool add_task — Add a task to a project page',
      ),
      assistant("I'll find the project pages matching 'mcp tester'."),
      assistant('Calling tool list_pages with arguments: {"query":"mcp tester"}'),
      user('Result of list_pages:\n{"names":["MCP Tester","MCP Tester (archive)"]}'),
      assistant(
        `I cannot complete step 'added' on the server: ${reason}.\nThe remaining steps are yours to complete, in order:\n` +
          '2. added: call tool add_task — Add a task to a project page\n' +
          '   Known arguments: {"task":"fix the login bug"}\n' +
          `   Arguments still to resolve: project (the user has not answered "Which project page should 'fix the login bug' go on?")\n` +
          'Use the guidance and resources above; call each tool yourself once its arguments are known.',
      ),
    ]);
    expect(result._meta).toEqual({
      ...protocolMeta(transport, { name: 'projects', version: '1.0.0' }),
      'mcpflow/execution': {
        status: 'handoff',
        steps: [
          { name: 'pages', status: 'completed' },
          { name: 'added', status: 'handoff' },
        ],
        stoppedAt: 'added',
        reason,
        rounds: 0,
        questions: [{ step: 'added', key: 'added/project', kind: 'askUser', status: 'unasked', attempts: 0 }],
      },
    });
  });

  test('quarterly_report fans one binding out to two later steps', async () => {
    const client = await open(createQuarterlyReportServer);
    const result = await client.getPrompt({ name: 'quarterly_report', arguments: { quarter: '2026-Q3' } });
    const rows = [
      { region: 'EMEA', revenue: 120 },
      { region: 'APAC', revenue: 95 },
      { region: 'AMER', revenue: 180 },
    ];
    expect(result.messages).toEqual([
      user('Build the sales report of a quarter\nArguments:\n- quarter: 2026-Q3'),
      assistant(
        'Plan:\n1. sales: call tool sales_query — Sales by region for a quarter\n2. metrics: call tool calculate_metrics — Total revenue and top region\n' +
          '3. report: call tool format_report — Format the quarterly report as markdown',
      ),
      assistant('Calling tool sales_query with arguments: {"quarter":"2026-Q3"}'),
      user(`Result of sales_query:\n${JSON.stringify({ quarter: '2026-Q3', rows })}`),
      assistant(`Calling tool calculate_metrics with arguments: ${JSON.stringify({ rows })}`),
      user('Result of calculate_metrics:\n{"total":395,"top_region":"AMER"}'),
      assistant(
        `Calling tool format_report with arguments: ${JSON.stringify({ quarter: '2026-Q3', rows, total: 395, top_region: 'AMER' })}`,
      ),
      user('Result of format_report:\n# Sales report 2026-Q3\nTotal: 395\nTop region: AMER\n- EMEA: 120\n- APAC: 95\n- AMER: 180'),
    ]);
    expect(result._meta?.['mcpflow/execution']).toEqual({
      status: 'completed',
      steps: ['sales', 'metrics', 'report'].map((name) => ({ name, status: 'completed' })),
    });
  });
});
