import { stepTool, isAskSource, type AnswerSchemaLike, type AskSource, type WorkflowModel } from '../model';
import { ArgumentTypeError, AskAnswerTypeError, UnknownToolArgumentError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** A registered tool's input schema, as the argument rule needs to see it, whichever SDK line holds it. */
export interface ToolInputSchema {
  /** The inputs the schema lists. */
  readonly inputs: readonly string[];
  /** True when the schema also takes inputs it does not list (a passthrough or catchall object). */
  readonly open: boolean;
  /** Whether input `name` takes some string (as a `promptArg` always gives). */
  acceptsString(name: string): boolean;
  /** Why `value` does not fit input `name`, in the schema's own words; undefined when it fits. */
  valueProblem(name: string, value: unknown): string | undefined;
  /**
   * How the values of schema `given` (an ask's answer, a workflow argument; undefined: any string)
   * compare with what input `name` takes, each in TypeScript's words (`number`, `"a" | "b"`).
   * Undefined when either schema cannot be read.
   */
  compareValues(name: string, given: AnswerSchemaLike | undefined): ValueComparison | undefined;
}

/** Whether the values a schema gives fit a tool input, and what each side is. */
export interface ValueComparison {
  readonly fits: boolean;
  readonly takes: string;
  readonly gives: string;
}

/** The input schemas of the tools a server has registered. */
export interface ToolSchemaLookup {
  /** Undefined when no such tool is registered, or its schema cannot be read (then nothing is checked). */
  toolInputSchema(name: string): ToolInputSchema | undefined;
}

/**
 * The mappings a tool cannot take: an argument name its input does not have, a constant its schema
 * rejects, a `promptArg` (a string) into an input that takes no string, an ask whose answer cannot
 * fit its input (a string answer into an input that takes none; a schema's answer of another type,
 * as the compiler reads it from types). A required input a step leaves unmapped is no error: the
 * run hands it to the client's LLM.
 *
 * @example
 * ```ts
 * const errors = checkToolArguments(model, registry); // at connect(), for every registered workflow
 * ```
 */
export function checkToolArguments(
  workflow: WorkflowModel,
  lookup: ToolSchemaLookup,
  argumentSchemas: Readonly<Record<string, AnswerSchemaLike | undefined>> = {},
): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  for (const step of workflow.steps) {
    const tool = stepTool(step);
    const schema = tool === undefined ? undefined : lookup.toolInputSchema(tool);
    if (!schema || tool === undefined) continue;
    for (const { name, source } of step.args) {
      const target = { kind: 'argSource', step: step.name, arg: name, part: 'value' } as const;
      if (!schema.inputs.includes(name)) {
        if (!schema.open) errors.push(new UnknownToolArgumentError(workflow.name, step.name, tool, name, schema.inputs));
        continue;
      }
      if (source.kind === 'constant') {
        const problem = schema.valueProblem(name, source.value);
        if (problem !== undefined) {
          errors.push(
            new ArgumentTypeError(
              workflow.name,
              step.name,
              tool,
              name,
              `rejects the constant ${JSON.stringify(source.value)}: ${problem}`,
              `give a constant the input schema accepts.`,
              target,
            ),
          );
        }
      } else if (source.kind === 'promptArg') {
        const problem = promptArgProblem(source.name, name, schema, argumentSchemas[source.name]);
        if (problem) errors.push(new ArgumentTypeError(workflow.name, step.name, tool, name, problem.problem, problem.fix, target));
      } else if (isAskSource(source)) {
        const mismatch = answerMismatch(source, name, schema);
        if (mismatch)
          errors.push(new AskAnswerTypeError(workflow.name, step.name, source.kind, tool, name, mismatch.takes, mismatch.answer, target));
      }
    }
  }
  return errors;
}

/**
 * Why an ask's answer cannot fill input `name`: a string answer into an input that takes none, or a
 * schema's answer the input does not take. An `askUser` with choices gives one of the choices,
 * whose type the source of the choices decides: not checked here.
 */
function answerMismatch(source: AskSource, name: string, schema: ToolInputSchema): { takes: string; answer: string } | undefined {
  if (source.kind === 'askUser' && source.choices !== undefined) return undefined;
  if (answersString(source)) {
    const answer = 'a string (it has no schema, or a string one)';
    if (!schema.acceptsString(name)) return { takes: 'no string', answer };
    // An input that takes some strings only (an enum) does not take any string.
    const compared = schema.compareValues(name, undefined);
    return compared && !compared.fits ? { takes: compared.takes, answer } : undefined;
  }
  const compared = schema.compareValues(name, source.schema);
  return compared && !compared.fits ? { takes: compared.takes, answer: `of type ${compared.gives} (its schema's output)` } : undefined;
}

/**
 * Why a `promptArg` cannot fill input `name`: its value is what the workflow argument's schema
 * gives (a string on the prompt face; any type on a workflow served only as a tool, whose
 * `tools/call` arguments are parsed by that schema), or a string when the schema cannot be read.
 */
function promptArgProblem(
  argument: string,
  name: string,
  schema: ToolInputSchema,
  given: AnswerSchemaLike | undefined,
): { problem: string; fix: string } | undefined {
  const compared = given && schema.compareValues(name, given);
  if (compared && compared.gives !== 'string') {
    if (compared.fits) return undefined;
    return {
      problem: `takes ${compared.takes}, but promptArg('${argument}') gives ${compared.gives} (the workflow argument's schema output).`,
      fix: `declare argument '${argument}' with a schema of type ${compared.takes}, or map '${name}' from another value.`,
    };
  }
  if (schema.acceptsString(name)) return undefined;
  return {
    problem: `takes no string, but promptArg('${argument}') always gives one (prompt arguments are strings).`,
    fix: `map '${name}' from a step's output or a constant of the right type, or let the tool take a string and convert it.`,
  };
}

/**
 * Whether an ask's answer is always a string: no schema (an `askUser` without choices, whose form
 * field is a string, or an `askModel`, whose answer is text), or a zod string schema. A schema of
 * another type, or choices (their values are the step's own), may give any value: not checked here.
 */
function answersString(source: AskSource): boolean {
  const schema = source.schema as { type?: unknown; _def?: { typeName?: unknown } } | undefined;
  return schema === undefined || schema.type === 'string' || schema._def?.typeName === 'ZodString';
}
