import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * DESIGN §4 is enforced by dependency-cruiser (`.dependency-cruiser.cjs`, run by `npm run lint`).
 * These tests run that same lint step on a copy of the sources, once as they are and once with each
 * kind of violation planted, so a rule that stopped matching (a moved folder, a type-only import
 * the cruiser does not see) fails here instead of passing silently.
 */

const repo = path.resolve(__dirname, '../../..');
const packages = fs.readdirSync(path.join(repo, 'packages')).filter((name) => fs.existsSync(path.join(repo, 'packages', name, 'src')));

/** A copy of what the architecture lint reads: every package's sources, the config, the tsconfigs. */
function copyOfSources(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-layering-'));
  for (const file of ['.dependency-cruiser.cjs', 'package.json', 'tsconfig.base.json', 'tsconfig.test.json'])
    fs.copyFileSync(path.join(repo, file), path.join(root, file));
  for (const name of packages)
    fs.cpSync(path.join(repo, 'packages', name, 'src'), path.join(root, 'packages', name, 'src'), { recursive: true });
  // The same dependencies resolve as in the repository (the SDKs, typescript, zod).
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

function append(root: string, file: string, text: string): void {
  fs.appendFileSync(path.join(root, file), `\n${text}\n`);
}

/** `npm run lint:architecture` in the copy: its exit status and what it printed. */
function lintArchitecture(root: string): { status: number | null; output: string } {
  // The planted transformer import makes the cruiser list every path into the engine: over 1 MiB of
  // text, past spawnSync's default buffer, which cut the output (and the line a test looks for) short.
  const run = spawnSync('npm', ['run', '--silent', 'lint:architecture'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const copies: string[] = [];
afterAll(() => {
  for (const root of copies) fs.rmSync(root, { recursive: true, force: true });
});

function copy(): string {
  const root = copyOfSources();
  copies.push(root);
  return root;
}

describe('the architecture lint (dependency-cruiser)', () => {
  test('passes on the sources as they are', () => {
    const { status, output } = lintArchitecture(copy());
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  test('fails on a type-only import from a lower engine layer into a higher one', () => {
    const root = copy();
    append(
      root,
      'packages/core/src/engine/plan/render-guidance.ts',
      "import type { StepContext } from '../steps/step-context';\nexport type PlantedContext = StepContext;",
    );
    const { status, output } = lintArchitecture(root);
    expect(output).toContain(
      'engine-plan-below-steps: packages/core/src/engine/plan/render-guidance.ts → packages/core/src/engine/steps/step-context.ts',
    );
    expect(status).not.toBe(0);
  });

  test('fails on an import cycle, type-only imports included', () => {
    const root = copy();
    append(
      root,
      'packages/core/src/engine/text/bounded-text.ts',
      "import type { errorMessage } from './error-message';\nexport type Planted = typeof errorMessage;",
    );
    append(
      root,
      'packages/core/src/engine/text/error-message.ts',
      "import type { boundText } from './bounded-text';\nexport type Planted = typeof boundText;",
    );
    const { status, output } = lintArchitecture(root);
    expect(output).toMatch(/no-circular: packages\/core\/src\/engine\/text\/(bounded-text|error-message)\.ts/);
    expect(status).not.toBe(0);
  });

  test('fails when code outside the adapters imports an SDK or an adapter, or the transformer reaches the engine', () => {
    const root = copy();
    append(
      root,
      'packages/core/src/rules/closest-name.ts',
      "import type { McpServer } from '@modelcontextprotocol/server';\nexport type Planted = McpServer;",
    );
    append(
      root,
      'packages/transformer/src/diagnostics/locate.ts',
      "import type { ExecutionMeta } from '@mcpflow/core';\nexport type Planted = ExecutionMeta;",
    );
    append(
      root,
      'packages/core/src/adapter-kit/line-exports.ts',
      "import type { WorkflowServer } from '../v2';\nexport type Planted = WorkflowServer;",
    );
    const { status, output } = lintArchitecture(root);
    expect(output).toContain('only-adapters-import-an-sdk: packages/core/src/rules/closest-name.ts');
    expect(output).toContain('transformer-reads-the-model-only: packages/transformer/src/diagnostics/locate.ts');
    expect(output).toContain('adapter-kit-is-sdk-neutral: packages/core/src/adapter-kit/line-exports.ts');
    expect(status).not.toBe(0);
  });

  test("fails when the engine (or anything outside the kit's telemetry) imports OpenTelemetry", () => {
    const root = copy();
    append(
      root,
      'packages/core/src/engine/execution/step-runner.ts',
      "import type { Span } from '@opentelemetry/api';\nexport type Planted = Span;",
    );
    const { status, output } = lintArchitecture(root);
    expect(output).toContain('only-the-kit-telemetry-imports-opentelemetry: packages/core/src/engine/execution/step-runner.ts');
    expect(status).not.toBe(0);
  });
});
