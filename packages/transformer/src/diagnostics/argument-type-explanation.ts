import type * as ts from 'typescript';
import { ArgumentTypeError } from '@mcpflow/core/rules';
import type { AnalyzedWorkflow, SourceNodes } from '../analyzer/analyzed-workflow';
import type { ToolDefinitionType } from '../analyzer/definition-types';
import { isUnchecked } from '../analyzer/type-paths';

/** Where a TypeScript error on a definition's argument sits: the step, the argument, its source, the tool. */
interface ArgumentEntry {
  readonly step: string;
  readonly argument: string;
  readonly source: SourceNodes;
  readonly tool: ToolDefinitionType;
}

function argumentAt(t: typeof ts, workflow: AnalyzedWorkflow, position: number): ArgumentEntry | undefined {
  for (const [step, nodes] of workflow.steps) {
    if (!nodes.tool) continue;
    for (const [argument, source] of nodes.args) {
      const entry = source.call.parent;
      if (t.isPropertyAssignment(entry) && position >= entry.getStart() && position < entry.end)
        return { step, argument, source, tool: nodes.tool };
    }
  }
  return undefined;
}

/** The type a data source call gives, as TypeScript sees it: the `ValueOf<T>` its return type carries. */
function valueTypeOf(t: typeof ts, checker: ts.TypeChecker, call: ts.Node): ts.Type | undefined {
  const signature = t.isCallExpression(call) ? checker.getResolvedSignature(call) : undefined;
  if (!signature) return undefined;
  const carrier = checker
    .getReturnTypeOfSignature(signature)
    .getProperties()
    .find((property) => String(property.escapedName).startsWith('__@valueType'));
  return carrier && checker.getNonNullableType(checker.getTypeOfSymbol(carrier));
}

function shown(node: ts.Node): string {
  const text = node.getText().replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * What a TS2322 on a step argument of a tool definition means in the workflow's terms — "argument
 * 'days' of tool get_weather takes number, but promptArg('days') gives a string" — where
 * TypeScript's own message talks of `PromptArgSource` and `DataSource<number>`. Undefined when the
 * error is not on such an argument.
 */
export function argumentTypeExplanation(
  t: typeof ts,
  checker: ts.TypeChecker,
  workflow: AnalyzedWorkflow,
  position: number,
): ArgumentTypeError | undefined {
  const entry = argumentAt(t, workflow, position);
  const input = entry && checker.getPropertyOfType(entry.tool.input, entry.argument);
  if (!entry || !input) return undefined;
  const value = valueTypeOf(t, checker, entry.source.call);
  if (!value || isUnchecked(t, value)) return undefined;
  const takes = checker.typeToString(checker.getTypeOfSymbol(input));
  const wanted = checker.typeToString(checker.getNonNullableType(checker.getTypeOfSymbol(input)));
  const kind = entry.source.source.kind;
  // promptArg<T>() gives T, declared by the author of a workflow served only as a tool.
  const stringArgument = kind === 'promptArg' && (value.flags & t.TypeFlags.String) !== 0;
  const gives = stringArgument
    ? `${shown(entry.source.call)} gives a string (a prompt argument always does)`
    : `${shown(entry.source.call)} gives ${checker.typeToString(value)}`;
  const fix =
    kind === 'promptArg'
      ? `map '${entry.argument}' from a value of type ${takes} (a constant, or a field() of an earlier step's output), or change the tool's input schema${stringArgument ? ' to take a string' : ''}; a workflow served only as a tool may declare '${entry.argument}' of that type and write promptArg<${wanted}>(…).`
      : kind === 'constant'
        ? `pass a constant of type ${takes}, or change the tool's input schema.`
        : `map '${entry.argument}' from a value of type ${takes}, or change the tool's input schema.`;
  return new ArgumentTypeError(workflow.model.name, entry.step, entry.tool.name, entry.argument, `takes ${takes}, but ${gives}.`, fix, {
    kind: 'argSource',
    step: entry.step,
    arg: entry.argument,
    part: 'value',
  });
}
