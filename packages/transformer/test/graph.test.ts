import * as fs from 'node:fs';
import * as path from 'node:path';
import { mermaidGraph } from '@mcpflow/core/model';
import { readWorkflowModel } from '@mcpflow/core';
import { FIXTURES, project, run } from './helpers/tsc';
import { GraphForEach } from './fixtures/graph/for-each';
import { GraphLinear } from './fixtures/graph/linear';
import { GraphParallel } from './fixtures/graph/parallel';
import { GraphSensitive } from './fixtures/graph/sensitive';
import { GraphFirst, GraphSecond } from './fixtures/graph/several';
import { GraphWhen } from './fixtures/graph/when';

/** Each graph fixture prints exactly the golden `.mmd` beside it (what `mcpflow graph <file>` writes on stdout). */
const GRAPHS = path.join(FIXTURES, 'graph');
const golden = (name: string) => fs.readFileSync(path.join(GRAPHS, `${name}.mmd`), 'utf8');

describe('mcpflow graph (CLI)', () => {
  test.each(['linear', 'parallel', 'when', 'for-each', 'several', 'sensitive'])('%s.ts prints its golden graph', (name) => {
    expect(run('cli', ['graph', path.join(GRAPHS, `${name}.ts`)], GRAPHS)).toEqual({ status: 0, stdout: golden(name) });
  });

  test('the goldens say what a reader expects: step names as nodes, a fork and a join, flow options on the edges', () => {
    expect(golden('linear')).toContain('  s2["hint"]\n');
    expect(golden('parallel')).toContain('  s0 --> s1\n  s0 --> s2\n  s0 --> s3\n  s1 --> s4\n  s2 --> s4\n  s3 --> s4\n');
    expect(golden('when')).toContain(`  start -->|"when present(promptArg('token'))"| s0\n`);
    expect(golden('for-each')).toContain(`  s1 -->|"forEach fromStep('issues'); when present(item('labels'))"| s2\n`);
    expect(golden('several').split('\n\n')).toEqual([expect.stringContaining('graph_first'), expect.stringContaining('graph_second')]);
  });

  test('no sensitive value on an edge: a sensitive constant, and what a sensitive source is compared with, read [redacted]', () => {
    for (const secret of ['4321', 'sk-live', 'tok-admin']) expect(golden('sensitive')).not.toContain(secret);
    expect(golden('sensitive')).toContain(`  s1 -->|"when equals(promptArg('api_key'), [redacted])"| s2\n`);
    expect(golden('sensitive')).toContain(`  s2 -->|"when oneOf(field('session', 'token'), [redacted])"| s3\n`);
    // A value compared with a part of the result no sensitive argument reads still shows.
    expect(golden('sensitive')).toContain(`  s3 -->|"when equals(field('session', 'user'), #quot;ada#quot;)"| s4\n`);
  });

  test('the run-time model of each class draws the same graph as the compiler', () => {
    const classes = {
      linear: [GraphLinear],
      parallel: [GraphParallel],
      when: [GraphWhen],
      'for-each': [GraphForEach],
      several: [GraphFirst, GraphSecond],
      sensitive: [GraphSensitive],
    };
    for (const [name, workflows] of Object.entries(classes)) {
      expect(`${workflows.map((workflow) => mermaidGraph(readWorkflowModel(workflow)!)).join('\n\n')}\n`).toBe(golden(name));
    }
  });

  test('--workflow prints that workflow only', () => {
    expect(run('cli', ['graph', 'several.ts', '--workflow', 'graph_second'], GRAPHS)).toEqual({
      status: 0,
      stdout: golden('several').split('\n\n')[1],
    });
  });

  test('-p prints the workflows of every file of a project, in file order, and --workflow picks one of them', () => {
    const dir = project('graph-project', { noEmit: true }, { files: [path.join(GRAPHS, 'linear.ts'), path.join(GRAPHS, 'several.ts')] });
    expect(run('cli', ['graph', '-p', dir], dir)).toEqual({ status: 0, stdout: `${golden('linear')}\n${golden('several')}` });
    expect(run('cli', ['graph', '-p', path.join(dir, 'tsconfig.json'), '--workflow', 'graph_first'], dir)).toEqual({
      status: 0,
      stdout: golden('several').split('\n\n')[0] + '\n',
    });
  });

  test('an unknown --workflow name is an error that lists the workflows there are, exit 1', () => {
    expect(run('cli', ['graph', 'several.ts', '--workflow', 'graph_third'], GRAPHS)).toEqual({
      status: 1,
      stdout: "mcpflow graph: no workflow named 'graph_third' in several.ts. Its workflows: graph_first, graph_second.\n",
    });
  });

  test('a file without a workflow, or one that does not exist, says so', () => {
    const helper = path.join(FIXTURES, 'shared/weather-tools.ts');
    expect(run('cli', ['graph', helper], GRAPHS)).toEqual({
      status: 1,
      stdout: `mcpflow graph: no workflow (a class with @Workflow) in ${helper}.\n`,
    });
    expect(run('cli', ['graph', 'nope.ts'], GRAPHS)).toEqual({
      status: 2,
      stdout: "mcpflow graph: cannot read 'nope.ts': no such file.\n",
    });
  });

  test('bad usage: no input, two inputs, an unknown flag — exit 2 with the usage', () => {
    for (const args of [[], ['linear.ts', '-p', '.'], ['linear.ts', '--nope'], ['linear.ts', '--workflow']]) {
      const result = run('cli', ['graph', ...args], GRAPHS);
      expect(result.status).toBe(2);
      expect(result.stdout).toContain('Usage: mcpflow graph <file.ts | -p <tsconfig.json>> [--workflow <name>]');
    }
  });
});
