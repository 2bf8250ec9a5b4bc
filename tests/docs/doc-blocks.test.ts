/**
 * The README and the guides in docs/ as the tests read them: every code block says how it is used
 * (the consumer suites then compile, run and serve them), every project a block names is one that a
 * suite builds, and every relative link points at a page and heading that exist.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO, allBlocks, docPages, outputBlocks, projectFiles, where } from './doc-blocks';

/** The projects the blocks build, and the suite that builds each. */
const PROJECTS: Record<string, string> = {
  esm: 'tests/consumer/consumer-projects.test.ts',
  cjs: 'tests/consumer/consumer-projects.test.ts',
  v1: 'tests/consumer/consumer-projects.test.ts',
  ts7: 'tests/consumer/typescript-7.test.ts',
  docs: 'tests/consumer/docs-project.test.ts',
};

test('every code block of the README and the guides says how the tests use it', () => {
  expect(() => allBlocks()).not.toThrow();
  expect(docPages()).toContain('README.md');
  expect(docPages().length).toBeGreaterThan(1);
});

test('every project a block names is built by a suite, and every project has a package.json and a tsconfig.json', () => {
  const named = new Set(allBlocks().flatMap((block) => ('projects' in block.use ? block.use.projects : [])));
  expect([...named].filter((project) => !(project in PROJECTS))).toEqual([]);
  for (const [project, suite] of Object.entries(PROJECTS)) {
    expect(fs.existsSync(path.join(REPO, suite))).toBe(true);
    expect({ project, files: Object.keys(projectFiles(project)) }).toEqual({
      project,
      files: expect.arrayContaining(['package.json', 'tsconfig.json']),
    });
  }
});

test('every output a page shows is program output (text) below a shell block of its project, whose command the suite runs', () => {
  const outputs = Object.keys(PROJECTS).flatMap((project) => outputBlocks(project));
  expect(outputs.length).toBeGreaterThan(0);
  expect(outputs.filter(({ block }) => block.language !== 'text').map(({ block }) => where(block))).toEqual([]);
});

test('examples that must fail to compile sit outside src/, so the project around them builds', () => {
  const failing = allBlocks().filter((block) => block.use.kind === 'file' && block.use.fails);
  expect(failing.length).toBeGreaterThan(0);
  expect(failing.filter((block) => 'path' in block.use && block.use.path.startsWith('src/')).map(where)).toEqual([]);
});

test("the repo's own commands name npm scripts that exist and files that are built", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const commands = allBlocks()
    .filter((block) => block.use.kind === 'repo')
    .flatMap((block) =>
      block.code
        .split('\n')
        .map((line) =>
          line
            .replace(/\s+#.*$/, '')
            .replace(/^(\w+=\S+\s+)+/, '')
            .trim(),
        )
        .filter(Boolean)
        .map((command) => ({ at: where(block), command })),
    );
  expect(commands.length).toBeGreaterThan(3);
  const unknown = commands.filter(({ command }) => {
    const script = /^npm (?:run (\S+)|(test|ci))\b/.exec(command);
    if (script) return script[2] !== 'ci' && !((script[1] ?? script[2]) in manifest.scripts);
    const node = /^node (\S+)/.exec(command);
    // A built example: its source is examples/<name>/server.ts.
    if (node) return !fs.existsSync(path.join(REPO, node[1].replace(/^examples\/dist\//, 'examples/').replace(/\.js$/, '.ts')));
    return true;
  });
  expect(unknown).toEqual([]);
});

test('the README stays a five-minute read: under 300 lines, details in docs/', () => {
  const lines = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').length;
  expect(lines).toBeLessThanOrEqual(300);
});

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = fs.readFileSync(path.join(REPO, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1])));
}

test('every relative link of the README and the guides points at a file, and at a heading that exists', () => {
  const broken: string[] = [];
  for (const page of docPages()) {
    const text = fs.readFileSync(path.join(REPO, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      const linked = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
      if (!fs.existsSync(path.join(REPO, linked))) broken.push(`${page}: ${target} (no file ${linked})`);
      else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor))
        broken.push(`${page}: ${target} (no heading #${anchor})`);
    }
  }
  expect(broken).toEqual([]);
});
