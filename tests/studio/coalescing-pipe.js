// Runs a stdio MCP server (the rest of the command line) and hands its output on in batches: what it
// wrote within `MCPFLOW_COALESCE_MS` (default 100) reaches the client in one chunk, as a busy pipe,
// a proxy or a slow reader delivers it. A client then reads a round's progress notifications and
// its result together.
const { spawn } = require('node:child_process');

const [command, ...args] = process.argv.slice(2);
const delay = Number(process.env.MCPFLOW_COALESCE_MS ?? 100);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
let held = [];
let timer;
child.stdout.on('data', (chunk) => {
  held.push(chunk);
  timer ??= setTimeout(() => {
    timer = undefined;
    process.stdout.write(Buffer.concat(held));
    held = [];
  }, delay);
});
child.on('exit', (code, signal) => {
  if (held.length > 0) process.stdout.write(Buffer.concat(held));
  process.exitCode = code ?? (signal ? 1 : 0);
});
process.stdin.on('end', () => child.stdin.end());
