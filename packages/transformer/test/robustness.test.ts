import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { addWorkflowDiagnostics } from '../src/program-diagnostics';
import { FIXTURES, REPO } from './helpers/tsc';

/** A small deterministic PRNG (mulberry32), so the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['{', '}', '(', ')', "'", '"', '`', ',', '.', '@', '[', ']', ':', '..', '{x}', "field('", 'as never', '\n', '', '0'];

function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * text.length);
  const span = Math.floor(next() * 40);
  switch (Math.floor(next() * 5)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + text.slice(at + span);
    case 2:
      return text.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)] + text.slice(at + 1);
    case 3: {
      const from = Math.floor(next() * text.length);
      return text.slice(0, at) + text.slice(from, from + span) + text.slice(at);
    }
    default: {
      const lines = text.split('\n');
      const a = Math.floor(next() * lines.length);
      const b = Math.floor(next() * lines.length);
      [lines[a], lines[b]] = [lines[b], lines[a]];
      return lines.join('\n');
    }
  }
}

test('the analyzer never throws on malformed code: 600 mutated fixtures give only diagnostics', () => {
  const sources = [
    ...['invalid', 'valid'].flatMap((folder) =>
      fs
        .readdirSync(path.join(FIXTURES, folder))
        .filter((file) => file.endsWith('.ts'))
        .map((file) => path.join(FIXTURES, folder, file)),
    ),
    ...fs
      .readdirSync(path.join(REPO, 'examples'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'dist')
      .map((entry) => path.join(REPO, 'examples', entry.name, 'server.ts')),
  ].map((file) => fs.readFileSync(file, 'utf8'));

  const next = random(20261122);
  const virtual = new Map<string, string>();
  for (let index = 0; index < 600; index += 1) {
    let text = sources[index % sources.length];
    const rounds = 1 + Math.floor(next() * 3);
    for (let round = 0; round < rounds; round += 1) text = mutate(text, next);
    virtual.set(path.join(FIXTURES, 'mutated', `case-${index}.ts`), text);
  }

  const base = JSON.parse(fs.readFileSync(path.join(REPO, 'tsconfig.base.json'), 'utf8')).compilerOptions;
  const options = ts.convertCompilerOptionsFromJson({ ...base, composite: false, noEmit: true }, REPO).options;
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, language, ...rest) =>
    virtual.has(fileName)
      ? ts.createSourceFile(fileName, virtual.get(fileName)!, language, true)
      : getSourceFile.call(host, fileName, language, ...rest);
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(fileName) ?? readFile.call(host, fileName);

  const program = addWorkflowDiagnostics(ts, ts.createProgram({ rootNames: [...virtual.keys()], options, host }));
  let ours = 0;
  for (const fileName of virtual.keys()) {
    const file = program.getSourceFile(fileName)!;
    const diagnostics = program.getSemanticDiagnostics(file).filter((diagnostic) => diagnostic.code >= 91000 && diagnostic.code < 92000);
    for (const diagnostic of diagnostics) {
      expect(diagnostic.category).toBe(ts.DiagnosticCategory.Error);
      expect(diagnostic.start).toBeGreaterThanOrEqual(0);
      expect(diagnostic.start! + diagnostic.length!).toBeLessThanOrEqual(file.text.length);
      expect(String(diagnostic.messageText)).toMatch(/^Workflow '.*' ?.*Fix: /s);
    }
    ours += diagnostics.length;
  }
  // The corpus still holds broken workflows the analyzer reads and reports.
  expect(ours).toBeGreaterThan(100);
});
