import { Redactor } from '../src/engine/redaction/redactor';
import { secretForms } from '../src/engine/redaction/secret-forms';
import { sensitiveTexts } from '../src/engine/redaction/sensitive-texts';

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
    redactor.add('sk/live+x=');
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
    redactor.add('secret-1');
    const copy = redactor.redactDeep(JSON.parse('{"__proto__":{"x":"secret-1"}}') as Record<string, unknown>);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"x":"[redacted]"}}');
  });

  test('keeps its forms in the list it is given (the execution state), longest first', () => {
    const secrets: string[] = [];
    const redactor = new Redactor(secrets);
    redactor.add('ab');
    redactor.add('abc def');
    expect(secrets[0]).toBe('abc%20def');
    expect(redactor.redact('abc def ab')).toBe('[redacted] [redacted]');
  });
});
