import type * as ts from 'typescript';
import type { AskModelSource, AskUserSource, DataSource } from '@mcpflow/core/model';
import type { SourceNodes } from './analyzed-workflow';
import type { LiteralReader } from './literal-reader';

/**
 * Reads an `askUser(message, options)` / `askModel(prompt, options)` call into the model: the text
 * and the literal options, and the sources it reads (`choices`, each `context` entry) as data
 * sources of their own. A `schema` is a value, not a literal: it is checked at run time.
 */
export function readAsk(
  kind: 'askUser' | 'askModel',
  call: ts.CallExpression,
  step: string,
  literals: LiteralReader,
  readSource: (node: ts.Expression) => SourceNodes | undefined,
  incomplete: (what: string, at: ts.Node, step?: string) => void,
): SourceNodes | undefined {
  const [first, second] = call.arguments;
  const text = literals.string(first);
  if (text === undefined) {
    incomplete(`the text given to ${kind}() in step '${step}'`, first ?? call, step);
    return undefined;
  }
  const options = literals.properties(second) ?? new Map<string, ts.Expression>();
  if (second && !literals.properties(second)) incomplete(`the options given to ${kind}() in step '${step}'`, second, step);
  const nested = new Map<string, SourceNodes>();
  const number = (key: string): number | undefined => {
    const node = options.get(key);
    const value = node && literals.json(node);
    return typeof value === 'number' ? value : undefined;
  };
  const flag = (key: string): boolean | undefined => {
    const node = options.get(key);
    const value = node && literals.json(node);
    return typeof value === 'boolean' ? value : undefined;
  };

  let source: AskUserSource | AskModelSource;
  if (kind === 'askUser') {
    const choicesNode = options.get('choices');
    const choices = choicesNode && readSource(choicesNode);
    if (choices) nested.set('choices', choices);
    source = {
      kind,
      message: text,
      choices: choices?.source,
      title: literals.string(options.get('title')),
      attempts: number('attempts'),
      sensitive: flag('sensitive'),
    };
  } else {
    const contextNode = options.get('context');
    const entries = literals.properties(contextNode);
    if (contextNode && !entries) incomplete(`the context given to askModel() in step '${step}'`, contextNode, step);
    const context: Record<string, DataSource> = {};
    for (const [name, node] of entries ?? []) {
      const read = readSource(node);
      if (!read) continue;
      context[name] = read.source;
      nested.set(`context.${name}`, read);
    }
    source = {
      kind,
      prompt: text,
      context: entries ? context : undefined,
      systemPrompt: literals.string(options.get('systemPrompt')),
      maxTokens: number('maxTokens'),
      attempts: number('attempts'),
      sensitive: flag('sensitive'),
    };
  }
  return { call, first, second, source: withoutUndefined(source), options, nested };
}

/** The model holds only the options that were given, as the decorators record them. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
