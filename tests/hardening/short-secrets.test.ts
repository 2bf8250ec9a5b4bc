import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, RunEndEvent } from '@mcpflow/core';
import { IN_MEMORY, messageText, type Line } from '../helpers/lines';

/**
 * Issue 40 (repairs): a sensitive value that is one character, or a word the protocol spells its
 * own fields with (`text`, `type`, `user`), must not break the result: redaction rewrites values,
 * never a message's keys or the values the protocol enumerates, and a secret shorter than four
 * characters is replaced where it stands as a word, not inside every word holding it.
 */
@Workflow({
  name: 'short_pin',
  description: 'Checks the PIN and the word against the account.',
  arguments: { pin: z.string(), word: z.string() },
  sensitiveArguments: ['pin', 'word'],
})
class ShortPin {
  @Step({ tool: 'check', args: { pin: promptArg('pin'), word: promptArg('word') }, guidance: 'Checking the account against the PIN.' })
  @Bind('checked')
  checked!: unknown;
}

describe.each(IN_MEMORY)('a short or protocol-word secret: $label', ({ line }) => {
  async function run(line: Line, pin: string, word: string) {
    const ended: RunEndEvent[] = [];
    const client = await line.connect(() => {
      const server = new line.WorkflowServer({ name: 'bank', version: '1.0.0' }, { onRunEnd: (event) => void ended.push(event) });
      server.registerTool('check', { inputSchema: { pin: z.string(), word: z.string() } }, async ({ pin, word }) => ({
        content: [{ type: 'text', text: `PIN ${pin} and word ${word} accepted for account 77, a-7.` }],
        structuredContent: { [word]: pin, status: 'accepted' },
      }));
      return server.use(ShortPin);
    });
    try {
      // The client parses the result against the protocol's schema: it throws if a key or a `type` was rewritten.
      const result = await client.getPrompt({ name: 'short_pin', arguments: { pin, word } });
      return { result, texts: result.messages.map(messageText), ended };
    } finally {
      await client.close();
    }
  }

  test.each([
    ['one character and `text`', 'a', 'text'],
    ['one character and `type`', 'e', 'type'],
    ['`user` and one digit', '7', 'user'],
  ])('%s: a valid prompt result, the values redacted where they are words, the rest intact', async (_, pin, word) => {
    const { result, texts, ended } = await run(line, pin, word);
    expect((result._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
    expect(result.messages.every((message) => ['user', 'assistant'].includes(message.role))).toBe(true);
    expect(result.messages.every((message) => message.content.type === 'text')).toBe(true);
    expect(result.description).toBe('Checks the PIN and the word against the account.');
    // The secrets in the tool's reply read [redacted] (the client's own sensitive values, searched everywhere) …
    const reply = texts.find((text) => text.includes('accepted for account'));
    // … where each stands as a word: `77` and `a-7` hold the secret `7` or `a` inside a word, or as one.
    const account = ({ a: '77, [redacted]-7', e: '77, a-7', '7': '77, a-[redacted]' } as Record<string, string>)[pin];
    expect(reply).toContain(`PIN [redacted] and word [redacted] accepted for account ${account}.`);
    // … and the text around them is not ruined: the guidance reads as written, every letter in place.
    expect(texts).toContain('Checking the account against the PIN.');
    // onRunEnd gets the step's data with its keys redacted too (a tool's structured output is data).
    expect(JSON.stringify(ended[0].outputs)).not.toContain(`"${word}"`);
  });

  test('nowhere in the result does a one-character secret stand as a word, nor a protocol-word one in a value', async () => {
    const { result } = await run(line, 'a', 'text');
    const values: string[] = [];
    const collect = (value: unknown, key?: string): void => {
      if (typeof value === 'string') {
        if (key !== 'type') values.push(value);
      } else if (Array.isArray(value)) value.forEach((item) => collect(item));
      else if (value && typeof value === 'object') for (const [name, item] of Object.entries(value)) collect(item, name);
    };
    collect(result);
    expect(values.filter((value) => /(?<![\p{L}\p{N}])a(?![\p{L}\p{N}])/u.test(value))).toEqual([]);
    expect(values.filter((value) => value.includes('text'))).toEqual([]);
  });
});
