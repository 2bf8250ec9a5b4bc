import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * runWorkflow works in any test runner: node's own (`node --test`) runs node/run-workflow.node-test.ts,
 * compiled to CommonJS as a project's build would, against the built packages (npm test builds first).
 */
const REPO = path.resolve(__dirname, '../../..');
const SOURCES = ['node/run-workflow.node-test.ts', 'workflows.ts'];

test('node --test runs runWorkflow on both SDK lines and both protocols, all passing', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-node-test-'));
  try {
    for (const source of SOURCES) {
      const { outputText } = ts.transpileModule(fs.readFileSync(path.join(__dirname, source), 'utf8'), {
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
          experimentalDecorators: true,
          esModuleInterop: true,
        },
      });
      const target = path.join(out, source.replace(/\.ts$/, '.js'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, outputText);
    }
    // Outside the repo, the packages resolve from its node_modules: the built @mcpflow/* packages, as installed.
    const ran = spawnSync(process.execPath, ['--test', '--test-reporter=tap', path.join(out, 'node/run-workflow.node-test.js')], {
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: path.join(REPO, 'node_modules') },
      timeout: 120_000,
    });
    const output = `${ran.stdout}${ran.stderr}`;
    expect(output).toMatch(/^# pass 15$/m);
    expect(output).toMatch(/^# fail 0$/m);
    expect(ran.status).toBe(0);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
