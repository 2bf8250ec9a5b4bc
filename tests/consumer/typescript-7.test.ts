/**
 * A project on TypeScript 7 (the native compiler, `typescript@latest`), set up as the README's ESM
 * project: `npm install` must work although TS 7 cannot be patched, and `mcpflow validate` (which
 * brings its own TypeScript 6) must still report a broken workflow.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKEN_AT, BROKEN_WORKFLOW, installProject, runIn } from './consumer-project';
import { packPackages } from './packed-packages';
import { readmeBlock } from './readme-blocks';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-ts7-'));
const dir = path.join(work, 'project');

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  const manifest = JSON.parse(readmeBlock('esm/package.json')) as { devDependencies: Record<string, string> };
  manifest.devDependencies.typescript = '^7.0.0';
  const installed = installProject(
    dir,
    {
      'package.json': JSON.stringify(manifest, null, 2),
      'tsconfig.json': readmeBlock('esm/tsconfig.json'),
      'src/server.ts': readmeBlock('src/server.ts'),
    },
    packPackages(path.join(work, 'tarballs')),
  );
  // Kept for the first test, which asserts on it.
  fs.writeFileSync(path.join(work, 'install.json'), JSON.stringify(installed));
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test('npm install succeeds: mcpflow patch says TypeScript 7 cannot be patched and what to do instead', () => {
  const installed = JSON.parse(fs.readFileSync(path.join(work, 'install.json'), 'utf8')) as { status: number; output: string };
  expect(installed.output).toMatch(/mcpflow patch: TypeScript 7\.\d+\.\d+ cannot be patched/);
  expect(installed.output).toContain('npx mcpflow validate');
  expect(installed.status).toBe(0);
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/typescript/package.json'), 'utf8')).version as string;
  expect(version).toMatch(/^7\./);
});

test("TypeScript 7's tsc builds the README example", () => {
  const built = runIn(dir, 'npx', ['tsc']);
  expect(built.output.split('\n').filter((line) => /error TS/.test(line))).toEqual([]);
  expect(built.status).toBe(0);
});

test('mcpflow validate, with its own TypeScript 6, reports a broken workflow and counts a sound one', () => {
  const clean = runIn(dir, 'npx', ['mcpflow', 'validate']);
  expect(clean.output).toContain('Checked 1 workflow in 1 file: no mcpflow errors.');
  expect(clean.status).toBe(0);
  fs.writeFileSync(path.join(dir, 'src/broken.ts'), BROKEN_WORKFLOW);
  const broken = runIn(dir, 'npx', ['mcpflow', 'validate']);
  expect(broken.status).toBe(1);
  expect(broken.output).toContain(
    `src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001: Workflow 'review', step 'review': reads binding 'analysis'`,
  );
  expect(broken.output).toContain('Checked 2 workflows in 2 files.');
});
