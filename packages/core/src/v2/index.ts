/** `@mcpflow/core/v2`: WorkflowServer for the 2.x SDK (`@modelcontextprotocol/server`), and how to serve it. Loads nothing of 1.x. */
export * from '../adapter-kit/line-exports';
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export { serveHttp, serveStdio, type HttpServingOptions, type HttpServingV2 } from './serve';
export {
  bullmqTasks,
  memoryTasks,
  TaskLimitError,
  type BullmqTasksOptions,
  type MemoryTasksOptions,
  type TaskStoreOptions,
  type FenceResult,
  type NewTask,
  type RoundChange,
  type TaskChange,
  type TaskChangeResult,
  type TaskRecord,
  type TaskRoundRunner,
  type TaskStatus,
  type TaskStore,
  type TaskView,
} from '../adapter-kit';
