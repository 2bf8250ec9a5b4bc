import { applyLimits, DEFAULT_MAX_TRACE_BYTES, DEFAULT_STEP_TIMEOUT_MS, InvalidServerOptionError } from '../src/engine/execution-limits';
import { contentBlockProblem, resourceContentsProblem } from '../src/engine/results/check-content';
import { findUnrepresentable } from '../src/engine/results/find-unrepresentable';
import { boundStrings, boundText, formatCount } from '../src/engine/text/bounded-text';
import { errorMessage } from '../src/engine/text/error-message';
import { boundTrace } from '../src/engine/trace/bound-trace';
import type { PromptMessage } from '../src/engine/content';

describe('applyLimits', () => {
  test('fills defaults, keeps false, and applying twice changes nothing', () => {
    expect(applyLimits()).toEqual({ defaultStepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS, maxTraceBytes: DEFAULT_MAX_TRACE_BYTES });
    const off = applyLimits({ defaultStepTimeoutMs: false, maxTraceBytes: Infinity });
    expect(applyLimits(off)).toEqual(off);
  });

  test.each([
    [{ defaultStepTimeoutMs: 0 }, /defaultStepTimeoutMs must be a positive number/],
    [{ defaultStepTimeoutMs: Number.NaN }, /defaultStepTimeoutMs/],
    [{ defaultStepTimeoutMs: true as never }, /defaultStepTimeoutMs/],
    [{ maxTraceBytes: 100 }, /maxTraceBytes must be a positive number of bytes, at least 4096/],
  ])('%j is refused', (limits, message) => {
    expect(() => applyLimits(limits)).toThrow(InvalidServerOptionError);
    expect(() => applyLimits(limits)).toThrow(message);
  });
});

describe('content checks', () => {
  test.each([
    [{ type: 'text', text: 'ok' }, undefined],
    [{ type: 'bogus' }, "c.type is 'bogus', not one of text, image, audio, resource_link, resource"],
    [{ type: 'text', text: 42 }, 'c.text is a number, not a string'],
    [{ type: 'image', data: 'AA==' }, 'c.mimeType is missing, not a string'],
    [{ type: 'resource_link', uri: 'x://y', name: 'n', description: 5 }, 'c.description is a number, not a string'],
    [{ type: 'resource', resource: { uri: 'x://y' } }, "c.resource has neither 'text' nor 'blob'"],
    [{ type: 'text', text: 'ok', _meta: 'x' }, 'c._meta is a string, not an object'],
    ['text', 'c is a string, not a content block'],
  ])('%j', (block, problem) => {
    expect(contentBlockProblem(block, 'c')).toBe(problem);
  });

  test('resource contents need a string uri and a string text or blob', () => {
    expect(resourceContentsProblem({ uri: 'x://y', blob: 'AA==' }, 'r')).toBeUndefined();
    expect(resourceContentsProblem({ uri: 7, text: '' }, 'r')).toBe('r.uri is a number, not a string');
  });
});

test('findUnrepresentable names the path of a BigInt or a cycle, and accepts shared (acyclic) objects', () => {
  const shared = { a: 1 };
  expect(findUnrepresentable({ x: shared, y: shared, d: new Date(0) }, 'v')).toBeUndefined();
  expect(findUnrepresentable({ rows: [{ id: 1n }] }, 'v')).toBe('v.rows[0].id is a BigInt');
  const node: Record<string, unknown> = {};
  node.children = [{ parent: node }];
  expect(findUnrepresentable(node, 'v')).toBe('v.children[0].parent refers back to v (a cycle)');
});

test('findUnrepresentable finds a BigInt or a cycle within the first two levels too (where a plain value needs no walk)', () => {
  expect(findUnrepresentable([{ type: 'text', text: 'ok' }], 'content')).toBeUndefined();
  expect(findUnrepresentable([{ type: 'text', text: 'ok', _meta: 1n }], 'content')).toBe('content[0]._meta is a BigInt');
  expect(findUnrepresentable({ count: 2n }, 'structuredContent')).toBe('structuredContent.count is a BigInt');
  const blocks: unknown[] = [];
  blocks.push(blocks);
  expect(findUnrepresentable(blocks, 'content')).toBe('content[0] refers back to content (a cycle)');
  expect(findUnrepresentable([{ type: 'text', text: 'ok', when: new Date(0) }], 'content')).toBeUndefined();
});

test('formatCount groups digits by thousands, as en-US does', () => {
  for (const count of [0, 7, 999, 1_000, 12_345, 1_048_576, -1_234_567, Number.MAX_SAFE_INTEGER]) {
    expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
  }
});

describe('errorMessage', () => {
  test.each([
    [new Error('disk on fire'), 'disk on fire'],
    [{ message: 'rate limited' }, 'rate limited'],
    [Object.assign(Object.create(null), { code: 'E42' }), '{"code":"E42"}'],
    [Object.create(null), 'a thrown object without a message'],
    ['plain', 'plain'],
    [42, '42'],
    [undefined, 'undefined'],
    [{ big: 1n }, 'a thrown object without a message'],
    [Object.assign(Object.create(null), { message: { nested: true } }), '{"message":{"nested":true}}'],
  ])('%p', (thrown, message) => {
    expect(errorMessage(thrown)).toBe(message);
  });

  test('keeps the whole text: it is cut where it leaves the server, after redaction', () => {
    expect(errorMessage(new Error('x'.repeat(10_000)))).toBe('x'.repeat(10_000));
  });
});

test('boundStrings cuts every string of a JSON-like value and leaves the rest', () => {
  const value = { reason: 'x'.repeat(10_000), steps: [{ name: 'a', failures: [{ index: 2, reason: 'y'.repeat(3) }] }], ok: true };
  expect(boundStrings(value, 2_000)).toEqual({
    reason: `${'x'.repeat(2_000)}… (10,000 characters)`,
    steps: [{ name: 'a', failures: [{ index: 2, reason: 'yyy' }] }],
    ok: true,
  });
  expect(value.reason).toHaveLength(10_000);
});

test('boundText never splits a surrogate pair', () => {
  expect(boundText('ab🙂cd', 3)).toBe('ab… (6 characters)');
});

describe('boundTrace', () => {
  const text = (body: string, role: 'user' | 'assistant' = 'user'): PromptMessage => ({ role, content: { type: 'text', text: body } });
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

  test('returns the same messages when they fit', () => {
    const messages = [text('a'), text('b')];
    expect(boundTrace(messages, 10_000, 100, 2)).toEqual({ messages });
  });

  test('cuts the largest message first, saying how much is left out', () => {
    const messages = [text('intent'), text('plan', 'assistant'), text('z'.repeat(50_000)), text('last')];
    const bounded = boundTrace(messages, 10_000, 500, 2);
    expect(bytes(bounded.messages)).toBeLessThanOrEqual(9_500);
    expect(bounded.truncation).toEqual({ limitBytes: 10_000, messagesCut: 1, messagesDropped: 0 });
    expect((bounded.messages[2].content as { text: string }).text).toMatch(
      /^z+\n\[truncated by mcpflow: [\d,]+ more characters not shown; the trace is limited to 10,000 bytes \(maxTraceBytes\)\]$/,
    );
    expect(bounded.messages[3]).toEqual(text('last'));
  });

  test('drops middle messages when cutting is not enough, keeping the opening and the last', () => {
    const messages = [text('intent'), text('plan'), ...Array.from({ length: 500 }, (_, index) => text(`step ${index}`)), text('last')];
    const bounded = boundTrace(messages, 4_096, 300, 2);
    expect(bytes(bounded.messages)).toBeLessThanOrEqual(4_096 - 300);
    expect(bounded.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(bounded.messages.at(-1)).toEqual(text('last'));
    expect((bounded.messages[2].content as { text: string }).text).toMatch(/^\[truncated by mcpflow: [\d,]+ messages not shown;/);
  });

  test('replaces a blob it cannot cut by a note', () => {
    const blob: PromptMessage = { role: 'user', content: { type: 'resource', resource: { uri: 'x://big', blob: 'A'.repeat(40_000) } } };
    const bounded = boundTrace([text('intent'), blob, text('last')], 8_000, 200, 1);
    expect(bounded.messages[1].content).toEqual({
      type: 'text',
      text: expect.stringMatching(/^\[truncated by mcpflow: the resource x:\/\/big of [\d,]+ bytes not shown;/),
    });
  });
});
