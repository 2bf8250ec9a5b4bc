import { stepTool, type DataSource, type WorkflowModel } from '../model';
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
}

/** The input schemas of the tools a server has registered. */
export interface ToolSchemaLookup {
  /** Undefined when no such tool is registered, or its schema cannot be read (then nothing is checked). */
  toolInputSchema(name: string): ToolInputSchema | undefined;
}

/**
 * The mappings a tool cannot take: an argument name its input does not have, a constant its schema
 * rejects, a `promptArg` (a string) or an ask whose answer is a string into an input that takes no string. A required input a step
 * leaves unmapped is no error: the run hands it to the client's LLM.
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
      } else if ((source.kind === 'askUser' || source.kind === 'askModel') && answersString(source) && !schema.acceptsString(name)) {
        errors.push(
          new AskAnswerTypeError(
            workflow.name,
            step.name,
            source.kind,
            tool,
            name,
            'no string',
            'a string (it has no schema, or a string one)',
            target,
          ),
        );
      }
    }
  }
  return errors;
}

/**
 * Whether an ask's answer is always a string: no schema (an `askUser` without choices, whose form
 * field is a string, or an `askModel`, whose answer is text), or a zod string schema. A schema of
 * another type, or choices (their values are the step's own), may give any value: not checked here.
 */
function answersString(source: Extract<DataSource, { kind: 'askUser' | 'askModel' }>): boolean {
  if (source.kind === 'askUser' && source.choices !== undefined) return false;
  const schema = source.schema as { type?: unknown; _def?: { typeName?: unknown } } | undefined;
  return schema === undefined || schema.type === 'string' || schema._def?.typeName === 'ZodString';
}
