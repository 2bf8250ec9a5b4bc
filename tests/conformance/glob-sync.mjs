/**
 * `fs.globSync` for node 20 (node 22 added it), as much of it as @modelcontextprotocol/conformance
 * uses: `*`, `?` and `**` patterns relative to `cwd`.
 */
import fs from 'node:fs';
import path from 'node:path';

function patternToRegExp(pattern) {
  let source = '';
  for (let at = 0; at < pattern.length; at++) {
    if (pattern.startsWith('**/', at)) {
      source += '(?:.*/)?';
      at += 2;
    } else if (pattern.startsWith('**', at)) {
      source += '.*';
      at += 1;
    } else if (pattern[at] === '*') source += '[^/]*';
    else if (pattern[at] === '?') source += '[^/]';
    else source += pattern[at].replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function entriesUnder(root, relative = '') {
  return fs.readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    return entry.isDirectory() ? [name, ...entriesUnder(root, name)] : [name];
  });
}

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map(patternToRegExp);
  return entriesUnder(cwd).filter((name) => patterns.some((regExp) => regExp.test(name)));
}
