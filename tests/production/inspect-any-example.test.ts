import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const EXAMPLES = fs
  .readdirSync(path.join(REPO, 'examples'))
  .filter((name) => fs.existsSync(path.join(REPO, 'examples', name, 'server.ts')));

/** What `npm run inspect -- <args>` runs. */
function inspect(...args: string[]) {
  return spawnSync(process.execPath, [path.join(REPO, 'scripts/inspect.mjs'), ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
}

test.each(EXAMPLES)('npm run inspect -- %s lists that example’s workflows', (example) => {
  const source = fs.readFileSync(path.join(REPO, 'examples', example, 'server.ts'), 'utf8');
  const declared = [...source.matchAll(/@Workflow\(\{\s*name: '([^']+)'/g)].map((match) => match[1]);
  // A workflow served only as a tool (expose: { prompt: false }) is listed by tools/list.
  const toolsOnly = /expose: \{ prompt: false/.test(source);
  const result = inspect(example, '--method', toolsOnly ? 'tools/list' : 'prompts/list');
  expect(result.status).toBe(0);
  const listed = JSON.parse(result.stdout) as { prompts?: { name: string }[]; tools?: { name: string }[] };
  const names = (toolsOnly ? listed.tools! : listed.prompts!).map((entry) => entry.name);
  if (toolsOnly) expect(names).toEqual(expect.arrayContaining(declared));
  else expect(names.sort()).toEqual(declared.sort());
});

test('npm run inspect names the examples when asked for one that does not exist', () => {
  const result = inspect('nope', '--method', 'prompts/list');
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(`no example 'nope'. Examples: ${EXAMPLES.join(', ')}.`);
});

test.each(EXAMPLES)('the %s example says on stderr that it serves over stdio', async (example) => {
  const child = spawn(process.execPath, [path.join(REPO, 'examples/dist', example, 'server.js')], { stdio: ['pipe', 'ignore', 'pipe'] });
  try {
    const said = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('\n')) resolve(stderr);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    expect(said).toMatch(/^\S+ serving .*\bstdio\b/);
  } finally {
    child.kill();
  }
});
