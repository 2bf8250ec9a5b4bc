import type { Attributes } from '@opentelemetry/api';
import type { ObservedStep } from '../../engine';
import type { StepAction } from '../../model';
import * as semconv from './semconv';

/**
 * A step span's name and attributes as it starts. The name is `{operation} {target}`, as the
 * conventions name spans: `execute_tool {tool}` for a tool step (with `gen_ai.operation.name` and
 * `gen_ai.tool.name`), `resources/read {uri template}` for a resource step — the template as
 * written, a low-cardinality name that never holds a value. A kind of step the kit does not know
 * yet is named by its kind and the step's name. Every step span says which step it is, and where
 * it ran: its parallel group, its element of a `forEach`.
 *
 * @example
 * ```ts
 * stepSpan({ name: 'walkthrough', index: 1, action: { kind: 'resource', uri: 'if://walkthrough/{game_id}' }, forEach: false }).name;
 * // 'resources/read if://walkthrough/{game_id}'
 * ```
 */
export function stepSpan(step: ObservedStep): { name: string; attributes: Attributes } {
  const attributes: Attributes = { [semconv.ATTR_MCPFLOW_STEP_NAME]: step.name, [semconv.ATTR_MCPFLOW_STEP_INDEX]: step.index };
  if (step.group) {
    attributes[semconv.ATTR_MCPFLOW_STEP_GROUP_FIRST] = step.group.first;
    attributes[semconv.ATTR_MCPFLOW_STEP_GROUP_SIZE] = step.group.size;
  }
  if (step.iteration) {
    attributes[semconv.ATTR_MCPFLOW_STEP_ITERATION_INDEX] = step.iteration.index;
    attributes[semconv.ATTR_MCPFLOW_STEP_ITERATION_COUNT] = step.iteration.count;
  }
  // A kind added to the engine reaches here before this switch knows it.
  const action = step.action as StepAction | { readonly kind: string };
  switch (action.kind) {
    case 'tool': {
      const { tool } = action as Extract<StepAction, { kind: 'tool' }>;
      attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] = semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
      attributes[semconv.ATTR_GEN_AI_TOOL_NAME] = tool;
      return { name: `execute_tool ${tool}`, attributes };
    }
    case 'resource': {
      const { uri } = action as Extract<StepAction, { kind: 'resource' }>;
      attributes[semconv.ATTR_MCP_METHOD_NAME] = 'resources/read';
      attributes[semconv.ATTR_MCPFLOW_RESOURCE_TEMPLATE] = uri;
      return { name: `resources/read ${uri}`, attributes };
    }
    default:
      return { name: `${action.kind} ${step.name}`, attributes };
  }
}
