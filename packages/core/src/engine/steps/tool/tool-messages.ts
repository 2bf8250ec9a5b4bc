import type { ToolResult } from '../../content';

/** The call announcement a tool step writes before it calls the tool, its arguments as JSON (see `argumentsJson`). */
export function toolCallText(tool: string, argumentsJson: string): string {
  return `Calling tool ${tool} with arguments: ${argumentsJson}`;
}

/** Where a sub-workflow's part of the trace starts: before its tool's call announcement. */
export function subWorkflowStartText(workflow: string): string {
  return `Running workflow '${workflow}': its steps follow, as its result.`;
}

/** Where a sub-workflow's part of the trace ends, with how its run ended (its result's `status`). */
export function subWorkflowEndText(workflow: string, status: string): string {
  switch (status) {
    case 'completed':
      return `Workflow '${workflow}' completed.`;
    case 'handoff':
      return `Workflow '${workflow}' stopped with steps left to do, as its result says.`;
    case 'cancelled':
      return `Workflow '${workflow}' was cancelled.`;
    default:
      return `Workflow '${workflow}' failed.`;
  }
}

/** The tool's own text, or its structured content as JSON when it sent no text. */
export function toolResultMessage(tool: string, result: ToolResult, text: string): string {
  const body = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(no text content)');
  return `Result of ${tool}:\n${body}`;
}
