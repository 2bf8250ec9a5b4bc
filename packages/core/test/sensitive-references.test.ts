import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, constant, promptArg } from '@mcpflow/decorators';
import { readWorkflowModel } from '../src/model/read-workflow';
import { planWorkflow } from '../src/engine';
import {
  referenceArguments,
  referenceSensitiveValues,
  restoreArguments,
  restoreReferences,
} from '../src/engine/pause/sensitive-references';

@Workflow({ name: 'vault', arguments: { key: z.string(), note: z.string() }, sensitiveArguments: ['key'] })
class Vault {
  @Step({ tool: 'open', args: { key: promptArg('key'), pin: constant({ pin: 'p1n-Ü' }), note: promptArg('note') }, sensitiveArgs: ['pin'] })
  opened!: unknown;
}

const plan = planWorkflow(readWorkflowModel(Vault)!, () => {
  throw new Error('no URI templates here');
});
const args = { key: 'k/ey "ünïcode" 🔑', note: 'a note' };
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('referenceSensitiveValues and restoreReferences', () => {
  const state = {
    bindings: {
      raw: `echo ${args.key} and p1n-Ü`,
      json: JSON.stringify({ key: args.key, pin: { pin: 'p1n-Ü' } }),
      uri: `vault://${encodeURIComponent(args.key)}`,
      [args.key]: 'a key named after the secret',
      other: 'nothing sensitive',
    },
    messages: [{ role: 'user', content: { type: 'text', text: `looks like a reference: \uFDD20.0.0\uFDD3 \uFDD4` } }],
  };

  test('every form of a sensitive argument or constant becomes a reference; the length stays exactly what it was', () => {
    const { value, referenced, padding } = referenceSensitiveValues(state, plan, args);
    expect(referenced).toBe(true);
    const sealed = JSON.stringify(value);
    for (const secret of [args.key, 'p1n-Ü', JSON.stringify(args.key).slice(1, -1), encodeURIComponent(args.key)])
      expect(sealed).not.toContain(secret);
    expect(bytes(value) + padding.length).toBe(bytes(state));
    expect(value.bindings.other).toBe('nothing sensitive');
  });

  test('restoring gives the state back exactly, text that looked like a reference included', () => {
    const { value } = referenceSensitiveValues(state, plan, args);
    expect(restoreReferences(value, plan, args)).toEqual(state);
  });

  test('a sensitive constant of a workflow run by class is referenced too, and restored', () => {
    const outer = { ...plan, calledConstants: ['inner-s3cret-PIN'] };
    const echoed = { bindings: { raw: 'an outer tool echoed inner-s3cret-PIN' } };
    const { value, referenced, padding } = referenceSensitiveValues(echoed, outer, args);
    expect(referenced).toBe(true);
    expect(JSON.stringify(value)).not.toContain('inner-s3cret-PIN');
    expect(bytes(value) + padding.length).toBe(bytes(echoed));
    expect(restoreReferences(value, outer, args)).toEqual(echoed);
  });

  test('without sensitive values, or when escapes would outweigh the references, the state is sealed as it is', () => {
    const plain = { text: 'no secrets here \uFDD2' };
    const noSecrets = planWorkflow(
      { ...plan.model, arguments: plan.model.arguments.map((argument) => ({ ...argument, sensitive: false })), steps: [] },
      () => {
        throw new Error('none');
      },
    );
    expect(referenceSensitiveValues(plain, noSecrets, args)).toEqual({ value: plain, referenced: false, padding: '' });
    const noisy = { text: `${'\uFDD2'.repeat(50)} ${args.note}` };
    expect(referenceSensitiveValues(noisy, plan, args)).toEqual({ value: noisy, referenced: false, padding: '' });
  });

  test('a reference this version of the workflow cannot fill is refused as stale', () => {
    expect(() => restoreReferences({ text: '\uFDD29.0.0\uFDD3' }, plan, args)).toThrow(expect.objectContaining({ problem: 'stale' }));
  });
});

describe("a task's large arguments: stored once, with the task, and referenced where a checkpoint or the result echoes them", () => {
  // 4 KiB and more, with a quote (its JSON forms differ) and a noncharacter of the references' own.
  const note = `${'a "long" note '.repeat(300)}\uFDD2 end`;
  const large = { ...args, note };
  const echoed = {
    bindings: { raw: `echo ${note}! ${args.key}`, json: JSON.stringify({ note, key: args.key }), short: args.note },
    messages: [{ role: 'user', content: { type: 'text', text: `Arguments:\n- note: ${note}` } }],
  };

  test('a checkpoint (largeArguments) refers to a large argument instead of holding it; only the sensitive references are padded back', () => {
    const { value, referenced, padding } = referenceSensitiveValues(echoed, plan, large, true);
    expect(referenced).toBe(true);
    expect(JSON.stringify(value)).not.toContain('a "long" note');
    expect(JSON.stringify(value)).not.toContain('a \\"long\\" note');
    expect(bytes(value)).toBeLessThan(1000);
    // The key's references (in the JSON binding) are padded back, and nothing else.
    const keyOnly = referenceSensitiveValues(echoed, plan, large);
    expect(padding.length).toBe(keyOnly.padding.length);
    expect(padding.length).toBeGreaterThan(0);
    expect(restoreReferences(value, plan, large)).toEqual(echoed);
    // A pause's requestState (no largeArguments) still holds it, as the client sees its length.
    expect(JSON.stringify(keyOnly.value)).toContain('a \\"long\\" note');
  });

  test("a result's large arguments are referenced, and restored exactly; below 4 KiB nothing is", () => {
    const result = { content: [{ type: 'text', text: echoed.messages[0].content.text }], structuredContent: { note, n: 1 } };
    const { value, referenced } = referenceArguments(result, large);
    expect(referenced).toBe(true);
    expect(bytes(value)).toBeLessThan(400);
    expect(restoreArguments(value, large)).toEqual(result);
    expect(referenceArguments(result, args)).toEqual({ value: result, referenced: false });
    expect(() => restoreArguments(value, args)).toThrow(expect.objectContaining({ problem: 'malformed' }));
  });
});
