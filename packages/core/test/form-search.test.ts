import fc from 'fast-check';
import { ClientMarks, newMarkKey } from '../src/engine/redaction/client-marks';
import { FormAutomaton } from '../src/engine/redaction/form-automaton';
import { FormSearch, replaceInTurn } from '../src/engine/redaction/form-search';
import { REDACTED, Redactor } from '../src/engine/redaction/redactor';
import { runSecrets, type SecretOrigin } from '../src/engine/redaction/run-secrets';
import { WHOLE_WORD_BELOW } from '../src/engine/redaction/word-search';

/** Longest first, as a run keeps its forms. */
const longestFirst = (forms: string[]) => [...new Set(forms)].sort((a, b) => b.length - a.length);

/** Units that make forms overlap often, a lone surrogate and a pair included; none of them is in `[redacted]`. */
const unit = fc.constantFrom('b', 'f', 'x', 'y', '/', '"', '\\', '%', '2', 'F', ' ', '\ud83d', '\ude00', 'é');
/** The same, with the units of `[redacted]`: forms that a replacement can hold. */
const anyUnit = fc.oneof(unit, fc.constantFrom('[', ']', 'r', 'e', 'd', 'a', 'c', 't'));

/** Texts made of the forms, pieces of them and other units, so that forms occur, overlap and touch. */
function textsOf(forms: string[], units: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const piece =
    forms.length === 0
      ? units
      : fc.oneof(
          units,
          fc.constantFrom(...forms),
          fc.constantFrom(...forms).map((form) => form.slice(1)),
        );
  return fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
}

const formLists = (units: fc.Arbitrary<string>) =>
  fc.record({
    held: fc.array(fc.string({ unit: units, minLength: 1, maxLength: 5 }), { maxLength: 5 }).map(longestFirst),
    supplied: fc.array(fc.string({ unit: units, minLength: 1, maxLength: 5 }), { maxLength: 5 }).map(longestFirst),
  });

const cases = (units: fc.Arbitrary<string>) =>
  formLists(units).chain(({ held, supplied }) =>
    fc.record({ held: fc.constant(held), supplied: fc.constant(supplied), text: textsOf([...held, ...supplied], units) }),
  );

describe('FormAutomaton', () => {
  test('finds every occurrence, overlapping ones included', () => {
    expect(FormAutomaton.build(['he', 'she', 'hers'])!.occurrences('ushers')).toEqual([1, 1, 2, 0, 2, 2]);
  });

  test('finds exactly what includes finds at each offset, code unit by code unit', () => {
    fc.assert(
      fc.property(cases(anyUnit), ({ held, supplied, text }) => {
        const patterns = [...new Set([...held, ...supplied])];
        const expected: string[] = [];
        patterns.forEach((pattern, index) => {
          for (let start = text.indexOf(pattern); start >= 0; start = text.indexOf(pattern, start + 1)) expected.push(`${start}:${index}`);
        });
        const found = FormAutomaton.build(patterns)!.occurrences(text);
        const pairs: string[] = [];
        for (let index = 0; index < found.length; index += 2) pairs.push(`${found[index]}:${found[index + 1]}`);
        expect(pairs.sort()).toEqual(expected.sort());
      }),
      { numRuns: 500 },
    );
  });
});

describe('FormSearch: one pass, the result of replacing form after form', () => {
  test('where forms overlap, the one replaced first wins, as it did form after form', () => {
    // `bcde` is longer, so it is replaced first, though `abc` starts earlier.
    expect(new FormSearch(['bcde', 'abc'], [], REDACTED).everywhere('abcde abc')).toBe(`a${REDACTED} ${REDACTED}`);
    // A supplied form is searched only in what the held ones left.
    expect(new FormSearch(['bcd'], ['abcde', 'ab'], REDACTED).everywhere('abcde')).toBe(`a${REDACTED}e`);
    expect(new FormSearch(['xyz'], ['yz'], REDACTED).suppliedOnly('xyz')).toBe(`x${REDACTED}`);
  });

  test('equals replacing in turn on random forms and texts, overlaps and surrogates included', () => {
    fc.assert(
      fc.property(cases(unit), ({ held, supplied, text }) => {
        const search = new FormSearch(held, supplied, REDACTED);
        expect(search.everywhere(text)).toBe(replaceInTurn(replaceInTurn(text, held, REDACTED), supplied, REDACTED));
        expect(search.suppliedOnly(text)).toBe(replaceInTurn(text, supplied, REDACTED));
      }),
      { numRuns: 2000 },
    );
  });

  test('equals it too when a form can be found in a replacement (`[`, `]`, `acted`)', () => {
    fc.assert(
      fc.property(cases(anyUnit), ({ held, supplied, text }) => {
        const search = new FormSearch(held, supplied, REDACTED);
        expect(search.everywhere(text)).toBe(replaceInTurn(replaceInTurn(text, held, REDACTED), supplied, REDACTED));
        expect(search.suppliedOnly(text)).toBe(replaceInTurn(text, supplied, REDACTED));
      }),
      { numRuns: 1000 },
    );
  });
});

/**
 * The reference for the forms shorter than `WHOLE_WORD_BELOW`: left to right, at each place (a whole
 * character, not inside a surrogate pair), the longest such form with no letter or digit next to it
 * is replaced.
 */
function replaceWords(text: string, forms: readonly string[], replacement: string = REDACTED): string {
  const words = longestFirst(forms.filter((form) => form.length < WHOLE_WORD_BELOW));
  const wordy = (unit: string | undefined) => unit !== undefined && /[\p{L}\p{N}]/u.test(unit);
  const low = (unit: string | undefined) => unit !== undefined && /[\udc00-\udfff]/.test(unit);
  const high = (unit: string | undefined) => unit !== undefined && /[\ud800-\udbff]/.test(unit);
  let result = '';
  let at = 0;
  while (at < text.length) {
    const inPair = low(text[at]) && high(text[at - 1]);
    const word = inPair
      ? undefined
      : words.find(
          (form) =>
            text.startsWith(form, at) &&
            !wordy(text[at - 1]) &&
            !wordy(text[at + form.length]) &&
            !(high(form.at(-1)) && low(text[at + form.length])),
        );
    if (word === undefined) {
      result += text[at];
      at += 1;
    } else {
      result += replacement;
      at += word.length;
    }
  }
  return result;
}

describe('Redactor over the one-pass search', () => {
  const secrets = fc.array(
    fc.record({
      value: fc.string({ unit: anyUnit, minLength: 1, maxLength: 6 }),
      origin: fc.constantFrom<SecretOrigin>('client', 'server'),
    }),
    { minLength: 1, maxLength: 4 },
  );

  test('redacts as the per-form replace did (short forms as whole words), client text marked apart, secrets learned between texts', () => {
    fc.assert(
      fc.property(secrets, fc.array(fc.nat(3), { minLength: 1, maxLength: 4 }), (learned, picks) => {
        const marks = new ClientMarks(newMarkKey());
        const redactor = new Redactor(runSecrets(marks.key));
        for (const [index, { value, origin }] of learned.entries()) {
          redactor.add(value, origin);
          const { held, supplied } = redactor.secrets;
          // A text of this secret, the others, and a piece the client wrote holding one.
          const other = learned[picks[index % picks.length] % learned.length].value;
          const text = `${value}=${other}; ${marks.wrap(`${other}${value}`)} ${JSON.stringify(value)}`;
          const pieces = marks.split(text);
          const [heldLong, suppliedLong] = [held, supplied].map((forms) => forms.filter((form) => form.length >= WHOLE_WORD_BELOW));
          const expected = pieces.map((piece, at) =>
            at % 2 === 0
              ? replaceWords(replaceInTurn(replaceInTurn(piece, heldLong, REDACTED), suppliedLong, REDACTED), [...held, ...supplied])
              : replaceWords(replaceInTurn(piece, suppliedLong, REDACTED), supplied),
          );
          expect(redactor.redactInTrace(text)).toBe(marks.join(expected));
          expect(redactor.redact(text)).toBe(marks.strip(marks.join(expected)));
        }
      }),
      { numRuns: 500 },
    );
  });

  test('a text without a secret is scanned once, not searched once per form of each secret', () => {
    const redactor = new Redactor();
    redactor.add('sk/live"x\'y', 'server'); // eleven forms: raw, JSON-escaped, percent-encoded
    redactor.add('pw/2', 'client');
    expect(redactor.secrets.held.length + redactor.secrets.supplied.length).toBeGreaterThan(8);
    const text = 'Deploying build 42 to staging: nothing sensitive in here at all.';
    const includes = jest.spyOn(String.prototype, 'includes');
    const split = jest.spyOn(String.prototype, 'split');
    try {
      expect(redactor.redact(text)).toBe(text);
      expect(includes.mock.contexts.filter((context) => `${context as string}` === text)).toHaveLength(0);
      expect(split).not.toHaveBeenCalled();
    } finally {
      includes.mockRestore();
      split.mockRestore();
    }
  });
});
