import type { ToolResult } from '../../content';

/** The call announcement a tool step writes before it calls the tool, its arguments as JSON (see `argumentsJson`). */
export function toolCallText(tool: string, argumentsJson: string): string {
  return `Calling tool ${tool} with arguments: ${argumentsJson}`;
}

/** The tool's own text, or its structured content as JSON when it sent no text. */
export function toolResultMessage(tool: string, result: ToolResult, text: string): string {
  const body = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(no text content)');
  return `Result of ${tool}:\n${body}`;
}
