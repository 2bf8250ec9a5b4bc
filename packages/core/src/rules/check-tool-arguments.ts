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
   * When an ask's answer gives values input `name` does not take (a `z.boolean()` answer into a
   * number, an enum value the input's enum lacks; `answer` undefined: any string): what each side
   * is, in TypeScript's words. Undefined when it fits or either schema cannot be read.
   */
  answerMismatch(name: string, answer: AnswerSchemaLike | undefined): { takes: string; answer: string } | undefined;
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
export function checkToolArguments(workflow: WorkflowModel, lookup: ToolSchemaLookup): WorkflowDefinitionError[] {
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
      } else if (source.kind === 'promptArg' && !schema.acceptsString(name)) {
        errors.push(
          new ArgumentTypeError(
            workflow.name,
            step.name,
            tool,
            name,
            `takes no string, but promptArg('${source.name}') always gives one (prompt arguments are strings).`,
            `map '${name}' from a step's output or a constant of the right type, or let the tool take a string and convert it.`,
            target,
          ),
        );
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
    const mismatch = schema.answerMismatch(name, undefined);
    return mismatch && { takes: mismatch.takes, answer };
  }
  const mismatch = schema.answerMismatch(name, source.schema);
  return mismatch && { takes: mismatch.takes, answer: `of type ${mismatch.answer} (its schema's output)` };
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
