import type * as ts from 'typescript';
import { editDistance } from '@mcpflow/core/rules';

/** The tools a program shows being defined or registered, as far as its source says. */
export interface ProgramTools {
  /** False when the program shows no registration source, or one whose name is not a literal: the names are then left to check at start. */
  readonly visible: boolean;
  /** Names from `defineTool('x', …)`, `server.registerTool('x', …)` and `server.tool('x', …)` (SDK 1.x), with the literal's text. */
  readonly names: ReadonlySet<string>;
}

/** The calls that register or define a tool by name: their first argument is the name. */
const REGISTERING = new Set(['defineTool', 'registerTool']);

/**
 * Reads the tool names a program's own files define or register: `defineTool('x', …)` calls and
 * `registerTool('x', …)` / `tool('x', …)` method calls with a literal name. A `defineTool` or
 * `registerTool` whose name is not a literal makes the set not `visible` (any name may be
 * registered there), as does a program with none at all. Only files whose text mentions one of
 * these calls are walked.
 *
 * @example
 * ```ts
 * const tools = programTools(ts, program.getSourceFiles().filter(own));
 * if (tools.visible && !tools.names.has('get_forcast')) report();
 * ```
 */
export function programTools(t: typeof ts, files: readonly ts.SourceFile[]): ProgramTools {
  const names = new Set<string>();
  let sources = 0;
  let hidden = false;
  const visit = (node: ts.Node): void => {
    if (t.isCallExpression(node)) {
      const callee = node.expression;
      const name = t.isIdentifier(callee) ? callee.text : t.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const first = node.arguments[0];
      const literal = first && t.isStringLiteralLike(first) ? first.text : undefined;
      if (name !== undefined && REGISTERING.has(name) && first) {
        sources += 1;
        if (literal === undefined) hidden = true;
        else names.add(literal);
      } else if (name === 'tool' && t.isPropertyAccessExpression(callee) && literal !== undefined && node.arguments.length > 1) {
        names.add(literal);
      }
    }
    t.forEachChild(node, visit);
  };
  for (const file of files) if (/\b(defineTool|registerTool|tool)\s*\(/.test(file.text)) visit(file);
  return { visible: sources > 0 && !hidden, names };
}

/** The shortest name a typo is looked for in: below it, two different tools are too often a letter apart. */
const MIN_TYPO_LENGTH = 5;

/**
 * The program's tool that `name` is most likely a misspelling of: a letter apart (two for names of
 * eight letters or more), never a name that merely contains the other (`load` in `team_load`). The
 * bar is higher than a did-you-mean hint's, since it fails the build.
 *
 * @example
 * ```ts
 * typoOf('get_forcast', ['get_forecast', 'send_alert']); // 'get_forecast'
 * typoOf('load', ['team_load']); // undefined
 * ```
 */
export function typoOf(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length < MIN_TYPO_LENGTH) return undefined;
  const limit = name.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate.length < MIN_TYPO_LENGTH || Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(name, candidate);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
