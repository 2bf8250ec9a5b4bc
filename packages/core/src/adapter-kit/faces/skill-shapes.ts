import { z } from 'zod';
import { stepTool, type StepModel, type WorkflowModel } from '../../model';
import { readStepRecords, readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
import { typeWords } from './skill-types';

/**
 * Each argument's type in plain words, by name, from the workflow's zod schemas ("text", "a whole
 * number (at least 1)"); empty without the class.
 *
 * @example
 * ```ts
 * argumentShapes(GetHint).get('player'); // 'text'
 * ```
 */
export function argumentShapes(target?: WorkflowClass): ReadonlyMap<string, string> {
  if (!target) return new Map();
  const schema = jsonSchema(z.object((readWorkflowOptions(target)?.arguments ?? {}) as unknown as z.ZodRawShape), 'input');
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return new Map(Object.entries(properties).map(([name, property]) => [name, typeWords(property)]));
}

/**
 * What each bound step's value is, in plain words, by step name: the shape of a tool's structured
 * result where the step names a `defineTool` definition with an `outputSchema` (or a workflow served
 * as a tool), else what mcpflow makes of a result; a list of those for a `forEach` step.
 *
 * @example
 * ```ts
 * outputShapes(model, GetHint).get('progress'); // 'an object with `room` (text) and `score` (a number)'
 * ```
 */
export function outputShapes(model: WorkflowModel, target?: WorkflowClass): ReadonlyMap<string, string> {
  const records = new Map((target ? readStepRecords(target) : []).map((record) => [record.property, record.options] as const));
  const shapes = new Map<string, string>();
  for (const step of model.steps) {
    if (step.binding === undefined) continue;
    const one = step.transform ? "what the step's transform makes of its result" : valueWords(step, records.get(step.property)?.tool);
    shapes.set(step.name, step.forEach === undefined ? one : `a list with one entry per element of the loop, each ${one}`);
  }
  return shapes;
}

function valueWords(step: StepModel, tool: unknown): string {
  if (stepTool(step) === undefined) return "the resource's text (parsed when its type is JSON)";
  const definition = tool as { workflow?: unknown; config?: { outputSchema?: z.ZodRawShape } } | undefined;
  if (definition?.workflow !== undefined) return "the inner workflow's result, `{ status, outputs }`";
  const shape = definition?.config?.outputSchema;
  const schema = shape && jsonSchema(z.object(shape), 'output');
  if (schema) return typeWords(schema);
  return "the tool's structured result, else its text (parsed when it is JSON)";
}

/** A zod schema as JSON Schema; undefined where zod cannot write it (then said as if there were none). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> | undefined {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
