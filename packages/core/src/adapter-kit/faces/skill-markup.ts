/**
 * How a workflow's own texts go into its `SKILL.md` as data, never as markup (DESIGN §2.10): a
 * one-line field (a name, a title, an argument's description) is flattened and, where it names
 * something, put in a code span; a block text (the description, an instruction, guidance, a
 * question) goes in a fenced block no line of it can close; a front matter value is a quoted
 * scalar. So no text of a workflow opens a heading, a list, a section or front matter of its own.
 */

/** Every line break Markdown, YAML or a reader may honour: CR LF, CR, LF, VT, FF, NEL, U+2028, U+2029. */
const LINE_BREAK = /[ \t]*(?:\r\n|[\n\v\f\r\u0085\u2028\u2029])[ \t]*/g;

/**
 * A one-line field: each line break (and the blanks around it) becomes one space.
 *
 * @example
 * ```ts
 * oneLine('Get a hint\r\n## How to run it'); // 'Get a hint ## How to run it'
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAK, ' ');
}

/**
 * A name as a Markdown code span, on one line, whatever backticks it holds: the span's fence is
 * longer than any run of backticks inside it.
 *
 * @example
 * ```ts
 * codeSpan('get_hint'); // '`get_hint`'
 * codeSpan('a`b');      // '``a`b``'
 * ```
 */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A block text as a fenced block: its lines kept (every line break written as LF), inside a fence of
 * backticks longer than any run of backticks in the text, so no line of it ends the block, and
 * nothing in it is read as a heading, a list or a section.
 *
 * @example
 * ```ts
 * fencedBlock('Say hi.\n## How to run it'); // the two lines between fence lines of three backticks (info string `text`)
 * ```
 */
export function fencedBlock(text: string): string {
  const lines = text.replace(/\r\n|[\n\v\f\r\u0085\u2028\u2029]/g, '\n');
  const fence = '`'.repeat(Math.max(3, longestRun(lines, '`') + 1));
  return `${fence}text\n${lines}\n${fence}`;
}

/**
 * A front matter value: a one-line YAML double-quoted scalar that reads back as the flattened text.
 * A JSON string is one, once the characters YAML does not take as they are (DEL, the C1 controls,
 * U+2028, U+2029, U+FEFF) are escaped too.
 *
 * @example
 * ```ts
 * yamlString('Say "hi":\n# not a comment'); // '"Say \\"hi\\": # not a comment"'
 * ```
 */
export function yamlString(text: string): string {
  return JSON.stringify(oneLine(text)).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const each of text) {
    run = each === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
