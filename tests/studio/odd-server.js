// A plain MCP server (SDK 2.x, stdio) whose prompt entries carry a _meta["mcpflow/workflow"] the studio
// cannot read next to a good one: a server of another mcpflow version, or a hand-written _meta.
const { McpServer } = require('@modelcontextprotocol/server');
const { StdioServerTransport } = require('@modelcontextprotocol/server/stdio');

const server = new McpServer({ name: 'odd', version: '1.0.0' });
const answer = async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'ok' } }] });
server.registerPrompt(
  'good',
  {
    description: 'Fine',
    _meta: { 'mcpflow/workflow': { name: 'good', steps: [{ name: 'only', kind: 'tool' }], mermaid: 'flowchart TD' } },
  },
  answer,
);
server.registerPrompt('stepless', { _meta: { 'mcpflow/workflow': { name: 'stepless', mermaid: 'flowchart TD' } } }, answer);
server.registerPrompt('plain', {}, answer);
void server.connect(new StdioServerTransport());
