import { constant, equals, fromStep, item, not, oneOf, present, promptArg, field } from '@mcpflow/decorators';
import { mermaidGraph, type GraphedStep, type GraphedWorkflow } from '../src/model';

function step(name: string, flow: Partial<Omit<GraphedStep, 'name'>> = {}): GraphedStep {
  return { name, parallel: false, ...flow };
}

describe('mermaidGraph', () => {
  test('a linear workflow: a start node named after the workflow, then each step in order', () => {
    expect(mermaidGraph({ name: 'get_hint', steps: [step('progress'), step('walkthrough'), step('hint')] })).toBe(
      [
        'flowchart TD',
        '  start(["get_hint"])',
        '  s0["progress"]',
        '  s1["walkthrough"]',
        '  s2["hint"]',
        '  start --> s0',
        '  s0 --> s1',
        '  s1 --> s2',
      ].join('\n'),
    );
  });

  test('adjacent parallel steps side by side: the step before forks to each, each joins into the step after', () => {
    const steps = [
      step('list'),
      step('a', { parallel: true }),
      step('b', { parallel: true }),
      step('c', { parallel: true }),
      step('report'),
    ];
    expect(mermaidGraph({ name: 'fan_out', steps })).toBe(
      [
        'flowchart TD',
        '  start(["fan_out"])',
        '  s0["list"]',
        '  s1["a"]',
        '  s2["b"]',
        '  s3["c"]',
        '  s4["report"]',
        '  start --> s0',
        '  s0 --> s1',
        '  s0 --> s2',
        '  s0 --> s3',
        '  s1 --> s4',
        '  s2 --> s4',
        '  s3 --> s4',
      ].join('\n'),
    );
  });

  test('a parallel group that opens the workflow forks from the start node; one that ends it joins nothing', () => {
    const steps = [
      step('a', { parallel: true }),
      step('b', { parallel: true }),
      step('c'),
      step('d', { parallel: true }),
      step('e', { parallel: true }),
    ];
    expect(mermaidGraph({ name: 'w', steps }).split('\n').slice(7)).toEqual([
      '  start --> s0',
      '  start --> s1',
      '  s0 --> s2',
      '  s1 --> s2',
      '  s2 --> s3',
      '  s2 --> s4',
    ]);
  });

  test('when and forEach label every edge into the step, forEach first', () => {
    const steps = [
      step('issues'),
      step('bodies', { forEach: fromStep('issues') }),
      step('report', { when: oneOf(promptArg('mode'), ['full', 'summary']) }),
      step('guides', { forEach: fromStep('issues'), when: not(present(item('labels.0.name'))) }),
      step('x', { parallel: true }),
      step('y', { parallel: true }),
      step('publish', { when: equals(field('report', 'text'), 'ready') }),
    ];
    expect(mermaidGraph({ name: 'triage', steps }).split('\n').slice(9)).toEqual([
      '  start --> s0',
      `  s0 -->|"forEach fromStep('issues')"| s1`,
      `  s1 -->|"when oneOf(promptArg('mode'), [#quot;full#quot;,#quot;summary#quot;])"| s2`,
      `  s2 -->|"forEach fromStep('issues'); when not(present(item('labels.0.name')))"| s3`,
      '  s3 --> s4',
      '  s3 --> s5',
      `  s4 -->|"when equals(field('report', 'text'), #quot;ready#quot;)"| s6`,
      `  s5 -->|"when equals(field('report', 'text'), #quot;ready#quot;)"| s6`,
    ]);
  });

  test('the first step runs under its condition too: the edge from the start node carries it', () => {
    expect(mermaidGraph({ name: 'w', steps: [step('only', { when: present(promptArg('token')) })] })).toContain(
      `start -->|"when present(promptArg('token'))"| s0`,
    );
  });

  test('names cannot break out of their labels: quotes, brackets, #, backticks and line breaks become entities or spaces', () => {
    const graph = mermaidGraph({ name: 'say "hi"', steps: [step('a"] --> evil["b'), step('#1 <b>`x`</b>\nnext')] });
    expect(graph.split('\n').slice(1, 4)).toEqual([
      '  start(["say #quot;hi#quot;"])',
      '  s0["a#quot;] --#gt; evil[#quot;b"]',
      '  s1["#35;1 #lt;b#gt;#96;x#96;#lt;/b#gt; next"]',
    ]);
  });

  test('%% and HTML in names stay text: no comment, no %%{init}%% directive, no element, no entity', () => {
    const graph = mermaidGraph({
      name: '%%{init: {"theme":"dark"}}%%',
      steps: [step('a %% not a comment'), step('<img src="http://evil.example/x.png"> &lt;a href=x&gt;')],
    });
    expect(graph.split('\n').slice(1, 4)).toEqual([
      '  start(["#37;#37;{init: {#quot;theme#quot;:#quot;dark#quot;}}#37;#37;"])',
      '  s0["a #37;#37; not a comment"]',
      '  s1["#lt;img src=#quot;http://evil.example/x.png#quot;#gt; #38;lt;a href=x#38;gt;"]',
    ]);
  });

  test('a workflow without steps is its start node', () => {
    expect(mermaidGraph({ name: 'empty', steps: [] })).toBe('flowchart TD\n  start(["empty"])');
  });
});

describe('mermaidGraph: no sensitive value', () => {
  test('a sensitive constant, and what a sensitive source is compared with, read [redacted]; other values show', () => {
    const graph = mermaidGraph({
      name: 'w',
      arguments: [{ name: 'pin', sensitive: true }, { name: 'mode' }],
      steps: [
        { ...step('send'), args: [{ name: 'code', source: constant({ code: 'x-9931' }) }], sensitiveArgs: ['code'] },
        step('a', { when: equals(promptArg('pin'), '0000') }),
        step('b', { when: oneOf(promptArg('mode'), ['x-9931 fast', 'slow']) }),
        step('c', { when: equals(promptArg('mode'), 'slow') }),
        step('d', { forEach: constant([{ code: 'x-9931' }]) }),
      ],
    });
    expect(graph.split('\n').slice(7)).toEqual([
      '  start --> s0',
      `  s0 -->|"when equals(promptArg('pin'), [redacted])"| s1`,
      `  s1 -->|"when oneOf(promptArg('mode'), [redacted])"| s2`,
      `  s2 -->|"when equals(promptArg('mode'), #quot;slow#quot;)"| s3`,
      `  s3 -->|"forEach constant([redacted])"| s4`,
    ]);
  });
});

test('mapped over workflows from untyped code (the index as its second argument), it draws each graph as it would alone', () => {
  const workflows = [{ name: 'a', steps: [step('x', { when: equals(promptArg('mode'), 'fast') })] }];
  const untyped = mermaidGraph as unknown as (workflow: GraphedWorkflow, index: number) => string;
  expect(workflows.map(untyped)).toEqual([mermaidGraph(workflows[0])]);
});
