// `npm run inspect -- [example] [inspector-cli options]`: runs @modelcontextprotocol/inspector-cli
// against an example server over stdio (code-review when no example is named), from examples/,
// as inspector-cli must run from a folder whose parent holds a package.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
const names = readdirSync(examples, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(examples, entry.name, 'server.ts')))
  .map((entry) => entry.name);

const args = process.argv.slice(2);
const named = args[0] !== undefined && !args[0].startsWith('-');
const example = named ? args.shift() : 'code-review';
if (!names.includes(example)) {
  console.error(
    `npm run inspect: no example '${example}'. Examples: ${names.join(', ')}.\nUsage: npm run inspect -- [example] --method prompts/list`,
  );
  process.exit(2);
}
const server = join('dist', example, 'server.js');
if (!existsSync(join(examples, server))) {
  console.error(`npm run inspect: examples/${server} is not built; run npm run build first.`);
  process.exit(2);
}
const cli = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/build/index.js');
const result = spawnSync(process.execPath, [cli, process.execPath, server, ...args], { cwd: examples, stdio: 'inherit' });
process.exit(result.status ?? 1);
