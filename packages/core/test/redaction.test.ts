import { ClientMarks, newMarkKey } from '../src/engine/redaction/client-marks';
import { Redactor } from '../src/engine/redaction/redactor';
import { runSecrets } from '../src/engine/redaction/run-secrets';
import { secretForms } from '../src/engine/redaction/secret-forms';
import { sensitiveTexts } from '../src/engine/redaction/sensitive-texts';
import { WHOLE_WORD_BELOW } from '../src/engine/redaction/word-search';

describe('secretForms', () => {
  test('raw, JSON-escaped once and twice, and percent-encoded as each URI operator encodes', () => {
    const forms = secretForms(`k/"y'`);
    expect(forms).toEqual(expect.arrayContaining([`k/"y'`, `k/\\"y'`, `k/\\\\\\"y'`, `k%2F%22y'`, `k/%22y'`, `k%2F%22y%27`, `k/%22y%27`]));
    // Longest first, so a form that contains another is replaced whole.
    expect([...forms].sort((a, b) => b.length - a.length)).toEqual(forms);
  });

  test('a lone surrogate has no URI form, and no throw', () => {
    expect(secretForms('ab\ud800cd')).toEqual(expect.arrayContaining(['ab\ud800cd']));
  });
});

describe('sensitiveTexts', () => {
  test('an object gives its JSON and every string inside it', () => {
    expect(sensitiveTexts({ user: 'svc', nested: { password: 'hunter2', list: ['a1'] }, retries: 3 })).toEqual([
      '{"user":"svc","nested":{"password":"hunter2","list":["a1"]},"retries":3}',
      'svc',
      'hunter2',
      'a1',
    ]);
  });

  test('numbers and BigInts give their digits; cycles and BigInts inside objects do not throw', () => {
    expect(sensitiveTexts(4321)).toEqual(['4321']);
    expect(sensitiveTexts(12345678901234567890n)).toEqual(['12345678901234567890']);
    const cyclic: Record<string, unknown> = { key: 'k-1', big: 7n };
    cyclic.self = cyclic;
    expect(sensitiveTexts(cyclic)).toEqual(['k-1', '7']);
    expect(sensitiveTexts(null)).toEqual([]);
    expect(sensitiveTexts('')).toEqual([]);
  });
});

describe('Redactor', () => {
  test('redacts every form, in every string of a value, keys included, without touching the original', () => {
    const redactor = new Redactor();
    redactor.add('sk/live+x=', 'server');
    const value = {
      text: 'Reading resource vault://keys/sk%2Flive%2Bx%3D',
      nested: [{ uri: 'https://h/sk/live+x=', _meta: { 'sk/live+x=': '{"k":"sk/live+x="}' } }],
      count: 2,
    };
    expect(redactor.redactDeep(value)).toEqual({
      text: 'Reading resource vault://keys/[redacted]',
      nested: [{ uri: 'https://h/[redacted]', _meta: { '[redacted]': '{"k":"[redacted]"}' } }],
      count: 2,
    });
    expect(value.text).toContain('sk%2F');
  });

  test('a key named __proto__ stays a key', () => {
    const redactor = new Redactor();
    redactor.add('secret-1', 'server');
    const copy = redactor.redactDeep(JSON.parse('{"__proto__":{"x":"secret-1"}}') as Record<string, unknown>);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"x":"[redacted]"}}');
  });

  test('copies only what holds a secret: the rest is the original itself, and the original is never changed', () => {
    const redactor = new Redactor();
    redactor.add('secret-1', 'server');
    const plain = { role: 'user', content: { type: 'text', text: 'nothing here' } };
    const holding = { role: 'user', content: { type: 'text', text: 'the key is secret-1' } };
    const messages = [plain, holding];
    const redacted = redactor.redactDeep({ messages });
    expect(redacted.messages[0]).toBe(plain);
    expect(redacted.messages[1]).not.toBe(holding);
    expect(redacted.messages[1]).toEqual({ role: 'user', content: { type: 'text', text: 'the key is [redacted]' } });
    expect(holding.content.text).toBe('the key is secret-1');
    // A data key that holds a secret (in a `_meta`) is renamed in the copy, the keys before it kept in their order.
    expect(Object.keys(redactor.redactDeep({ _meta: { a: 1, 'secret-1': 2, c: 3 } })._meta)).toEqual(['a', '[redacted]', 'c']);
    expect(Object.keys(redactor.redactData({ a: 1, 'secret-1': 2, c: 3 }))).toEqual(['a', '[redacted]', 'c']);
  });

  test("never rewrites a protocol key or a value the protocol enumerates, whatever the secret; a tool's data in full", () => {
    const redactor = new Redactor();
    for (const secret of ['type', 'text', 't', 'e', 'xt', 'user']) redactor.add(secret, 'server');
    const message = {
      role: 'user',
      content: { type: 'text', text: 'type t, then text: e', _meta: { type: 'type', note: 'next' } },
      structuredContent: { text: 'xt' },
    };
    expect(redactor.redactDeep(message)).toEqual({
      role: 'user',
      content: {
        type: 'text',
        text: '[redacted] [redacted], then [redacted]: [redacted]',
        _meta: { '[redacted]': '[redacted]', note: 'next' },
      },
      structuredContent: { '[redacted]': '[redacted]' },
    });
  });

  test("keeps its forms in the run's secrets it is given (the execution state), by origin, longest first", () => {
    const secrets = runSecrets(undefined);
    const redactor = new Redactor(secrets);
    redactor.add('ab', 'server');
    redactor.add('abc def', 'server');
    redactor.add('mine', 'client');
    expect(secrets.held[0]).toBe('abc%20def');
    expect(secrets.supplied).toEqual(['mine']);
    expect(secrets.learned).toEqual([]);
    redactor.learn('an answer', 'client');
    expect(secrets.learned).toEqual([{ value: 'an answer', origin: 'client' }]);
    expect(redactor.redact('abc def ab mine an answer')).toBe('[redacted] [redacted] [redacted] [redacted]');
  });
});

describe('Redactor: a secret shorter than WHOLE_WORD_BELOW characters', () => {
  test('is replaced where it stands as a whole word, never inside another word', () => {
    const redactor = new Redactor();
    redactor.add('a', 'server');
    redactor.add('42', 'client');
    expect(WHOLE_WORD_BELOW).toBe(4);
    expect(redactor.redact('a banana, a "a", answered: a')).toBe('[redacted] banana, [redacted] "[redacted]", answered: [redacted]');
    expect(redactor.redact('PIN 42 accepted for 1420 and x42 users; /pins/42?x=42')).toBe(
      'PIN [redacted] accepted for 1420 and x42 users; /pins/[redacted]?x=[redacted]',
    );
    expect(redactor.redact('a')).toBe('[redacted]');
  });

  test('in its encoded forms too, and a longer secret is still replaced inside words', () => {
    const redactor = new Redactor();
    redactor.add('a/', 'server');
    redactor.add('hunter2', 'server');
    expect(redactor.redact('key a/ or vault://a%2F or {"k":"a/"}; pwhunter2x')).toBe(
      'key [redacted] or vault://[redacted] or {"k":"[redacted]"}; pw[redacted]x',
    );
  });

  test("a short secret of the server's is not searched in the client's text (no oracle); the client's own is", () => {
    const redactor = new Redactor(runSecrets(newMarkKey()));
    redactor.add('7', 'server');
    redactor.add('9', 'client');
    expect(redactor.redact(`pin 7, guess ${redactor.client('7')}, mine ${redactor.client('9')} and 9`)).toBe(
      'pin [redacted], guess 7, mine [redacted] and [redacted]',
    );
  });
});

describe('Redactor: text the client supplied is never marked by a secret the server holds', () => {
  const marking = () => new Redactor(runSecrets(newMarkKey()));

  test('a guess equal to a held secret is left as the client wrote it; the secret is replaced around it', () => {
    const redactor = marking();
    redactor.add('4321', 'server');
    const text = `pin 4321, note ${redactor.client('4321')}, again ${redactor.client('x4321y')}`;
    expect(redactor.redact(text)).toBe('pin [redacted], note 4321, again x4321y');
  });

  test("the client's own secrets are replaced inside its text as well as outside", () => {
    const redactor = marking();
    redactor.add('sk_live_1', 'client');
    expect(redactor.redact(`key ${redactor.client('sk_live_1 and more')} echoed sk_live_1`)).toBe(
      'key [redacted] and more echoed [redacted]',
    );
  });

  test('a held secret is replaced before a supplied one, so a client value overlapping it cannot change how it reads', () => {
    const held = (supplied: string) => {
      const redactor = marking();
      redactor.add('XYZ123', 'server');
      redactor.add(supplied, 'client');
      return redactor.redact('tool said XYZ1234');
    };
    expect(held('XYZ1234')).toBe(held('ABC9999'));
  });

  test('marks survive JSON escaping and percent-encoding, stay in the trace and are gone from what is sent', () => {
    const redactor = marking();
    redactor.add('4321', 'server');
    const inJson = JSON.stringify({ note: redactor.client('4321"') });
    const inUri = `notes://${encodeURIComponent(redactor.client('4321/'))}`;
    const kept = redactor.redactInTrace(`${inJson} ${inUri} 4321`);
    expect(kept).not.toBe(redactor.redact(kept));
    expect(redactor.redact(kept)).toBe('{"note":"4321\\""} notes://4321%2F [redacted]');
    expect(redactor.redactDeep({ [redactor.client('4321')]: [redactor.client('4321'), '4321'] })).toEqual({
      '4321': ['4321', '[redacted]'],
    });
  });

  test('a mark without the run key is plain text: a tool cannot forge one around a secret', () => {
    const redactor = marking();
    redactor.add('tok_1', 'server');
    const forged = new ClientMarks(newMarkKey());
    expect(redactor.redact(forged.wrap('tok_1'))).not.toContain('tok_1');
    expect(redactor.redact('\uFDD0tok_1\uFDD1')).toBe('\uFDD0[redacted]\uFDD1');
  });

  test('a run that holds no secret of the server marks nothing', () => {
    const redactor = new Redactor(runSecrets(undefined));
    expect(redactor.marking).toBe(false);
    expect(redactor.client('4321')).toBe('4321');
  });
});
