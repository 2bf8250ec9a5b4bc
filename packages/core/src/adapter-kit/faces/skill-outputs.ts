import { z } from 'zod';
import { stepTool, type StepModel, type WorkflowModel } from '../../model';
import { readStepRecords, type WorkflowClass } from '../../model/read-workflow';
import { typeWords } from './skill-types';

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
  if (shape) {
    try {
      return typeWords(z.toJSONSchema(z.object(shape), { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>);
    } catch {
      // A schema zod cannot write as JSON Schema: said as for a tool without one.
    }
  }
  return "the tool's structured result, else its text (parsed when it is JSON)";
}
