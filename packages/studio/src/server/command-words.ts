/**
 * A server command line split into words as a POSIX shell splits a simple command: blanks separate
 * words, '…' and "…" quote, a backslash escapes the next character. No expansion, no pipes: the
 * studio starts the program itself (so closing the studio ends the server, not only a shell).
 *
 * @example
 * ```ts
 * commandWords('node "my server.js" --sdk 2'); // ['node', 'my server.js', '--sdk', '2']
 * ```
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index];
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < command.length) word += command[(index += 1)];
      else word += char;
    } else if (char === '"' || char === "'") [quote, word] = [char, word ?? ''];
    else if (char === '\\' && index + 1 < command.length) word = (word ?? '') + command[(index += 1)];
    else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (quote) throw new Error(`The server command has an unclosed ${quote}: ${command}`);
  if (word !== undefined) words.push(word);
  return words;
}
