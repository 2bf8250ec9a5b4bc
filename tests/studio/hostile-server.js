// A hostile MCP server (SDK 2.x, stdio) for the studio's hardening tests (issue 40 §7): what a server
// may send that the studio must cap or neutralise before it renders or keeps it. Its workflow
// `flood` is served as a tool whose result claims 5,000,000 forEach iterations, a 1 MB unbroken
// string as its text and as a step's name, 1,000 progress notifications of 2 kB each; its names
// carry `%%` directives, HTML (an `<img>` of another origin), bidi controls. `proto` is a prompt
// with an argument named `__proto__`. It ignores the end of its stdin (it stays up until killed),
// as a careless server does: the studio must not leave it orphaned.
// MCPFLOW_STUDIO_TEST_PIDS=<file> appends the process id to the file.
const { McpServer } = require('@modelcontextprotocol/server');
const { z } = require('zod');
const { StdioServerTransport } = require('@modelcontextprotocol/server/stdio');

if (process.env.MCPFLOW_STUDIO_TEST_PIDS) require('node:fs').appendFileSync(process.env.MCPFLOW_STUDIO_TEST_PIDS, `${process.pid}\n`);

const ITERATIONS = 5_000_000;
const PROGRESS = 1000;
const WIDE = 'w'.repeat(1024 * 1024);
const steps = [
  { name: 'spread', kind: 'tool' },
  { name: 'safe\u202Egnp.exe', kind: 'tool' },
  { name: WIDE, kind: 'tool' },
];
const MERMAID =
  "flowchart TD\n  start([\"flood %%{init: {'theme':'forest'}}%%\"])\n  start --> img[\"<img src='http://127.0.0.2:9/x.png'>\"]";
const server = new McpServer({ name: 'hostile', version: '1.0.0' });
server.registerTool(
  'flood',
  {
    description: 'A workflow whose result claims millions of iterations',
    inputSchema: z.object({}),
    _meta: { 'mcpflow/workflow': { name: 'flood', steps, mermaid: MERMAID } },
  },
  async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    if (progressToken !== undefined)
      for (let progress = 1; progress <= PROGRESS; progress += 1)
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, message: 'p'.repeat(2_000) } });
    return flooded();
  },
);
const flooded = () => ({
  content: [{ type: 'text', text: 'x'.repeat(1024 * 1024) }],
  _meta: {
    'mcpflow/execution': {
      status: 'completed',
      steps: [
        { name: 'spread', status: 'completed', iterations: { count: ITERATIONS, failures: [{ index: 3, status: 'failed' }] } },
        { name: 'safe\u202Egnp.exe', status: 'completed' },
        { name: WIDE, status: 'completed' },
      ],
    },
  },
});
// A shape with an own `__proto__` key (an object literal's would set the prototype).
const protoShape = Object.defineProperty({ x: z.string().optional() }, '__proto__', { value: z.string().optional(), enumerable: true });
server.registerPrompt(
  'proto',
  {
    description: 'A prompt whose argument is named __proto__',
    argsSchema: z.object(protoShape),
    _meta: { 'mcpflow/workflow': { name: 'proto', steps: [{ name: 'echo', kind: 'tool' }], mermaid: 'flowchart TD\n  echo' } },
  },
  async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'echoed' } }] }),
);
// Stays up when its stdin ends.
setInterval(() => undefined, 60_000);
process.stdin.on('end', () => undefined);
void server.connect(new StdioServerTransport());
