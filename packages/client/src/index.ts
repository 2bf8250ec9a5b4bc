/**
 * `@mcpflow/client`: the client side of long work (DESIGN §2.17). Call a tool that may run as an
 * MCP task from an SDK 2.x `Client`, follow it to its result, answer its questions, cancel it, and
 * pick it up again after a restart.
 */
export { callTool } from './call-tool';
export { resumeTask } from './resume-task';
export { TaskCancelledError, TaskFailedError, TaskInputError, TaskSupportError } from './task-errors';
export {
  TASKS_EXTENSION,
  type CallToolOptions,
  type FollowOptions,
  type InputHandler,
  type InputRequest,
  type InputRequests,
  type InputResponses,
  type TaskMode,
  type TaskStatus,
  type TaskStatusWord,
  type TaskStep,
  type ToolCall,
  type ToolResult,
} from './task-types';
