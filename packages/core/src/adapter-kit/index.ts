/**
 * The adapter kit: everything a WorkflowServer does that does not depend on the SDK line, written
 * once for `core/v1` and `core/v2`, which import it from here. See README.md for its map.
 */
export type { AdapterLine, RoundsSupport, SkillsSupport } from './adapter-line';
export type { WorkflowSkill, WorkflowSkillSource } from './faces/skill-source';
export { skillFiles } from './faces/skill-files';
export { signalFromSource, withSignalFrom } from './run/signal-from-source';
export { clientKey } from './run/client-key';
export type { SchemaIssue, SchemaVerdict } from './schema-verdict';
export { servingWorkflows, type WorkflowServing } from './serving-workflows';
export type { WorkflowServingOptions } from './workflow-serving-options';
export type { JsonToolSchema } from './tools/tool-schema/read-tool-schema';
export type { PropertySchema } from './tools/tool-schema/describe-input-schema';
export {
  firstServerOrExit,
  loadServingPackage,
  nodeSessionRequest,
  rememberRemoteAddress,
  remoteAddressOf,
  reportServingFailure,
  withoutAnsweredRejections,
  serveHttpEndpoint,
  webSessionRequest,
  type HttpServing,
  type HttpServingOptions,
  type StdioServing,
  type StdioServingOptions,
} from './serving';
export { memoryTasks, type MemoryTasksOptions } from './tasks/memory-tasks';
export { bullmqTasks, type BullmqTasksOptions } from './tasks/bullmq-tasks';
export type { TaskStoreOptions } from './tasks/task-store-options';
export { TASKS_EXTENSION, type TaskMethods, type TasksSupport } from './tasks/tasks-support';
export { declaredCapabilities } from './tasks/declared-capabilities';
export { keepUnliftedInput, liftedInput, type RawRequestReceiver } from './tasks/unlifted-input';
export {
  TaskLimitError,
  type FenceResult,
  type NewTask,
  type RoundChange,
  type SealedTaskValue,
  type TaskChange,
  type TaskChangeResult,
  type TaskRecord,
  type TaskView,
  type TaskRoundRunner,
  type TaskStatus,
  type TaskStore,
} from './tasks/task-store';
