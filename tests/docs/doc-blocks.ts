import * as fs from 'node:fs';
import * as path from 'node:path';

const README = path.resolve(__dirname, '../../README.md');

/**
 * The code block that follows `<!-- readme-test: <name> -->` in README.md, exactly as a reader
 * copies it: the tests build projects from these blocks, so the README cannot drift from what works.
 */
export function readmeBlock(name: string): string {
  const text = fs.readFileSync(README, 'utf8');
  const marker = `<!-- readme-test: ${name} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no block marked '${marker}': mark the code block the test should use.`);
  const block = /^```[a-z]*\n([\s\S]*?)^```$/m.exec(text.slice(at + marker.length));
  if (!block) throw new Error(`README.md: no code block after '${marker}'.`);
  return block[1];
}
