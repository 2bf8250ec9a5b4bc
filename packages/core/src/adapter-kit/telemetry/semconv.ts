/**
 * The attribute names and values of mcpflow's spans. Those of the OpenTelemetry semantic
 * conventions are copied here under the names `@opentelemetry/semantic-conventions` gives them, as
 * the conventions ask instrumentations to do for attributes still in development (the package's
 * `incubating` entry is not to be depended on, and mcpflow adds no dependency for a few strings);
 * the `mcpflow.*` ones are mcpflow's own.
 */

export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const ATTR_GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL = 'execute_tool';
/** A workflow run through `prompts/get` (the GenAI conventions' value for invoking a workflow). */
export const GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW = 'invoke_workflow';
export const ATTR_ERROR_TYPE = 'error.type';
export const ERROR_TYPE_VALUE_OTHER = '_OTHER';
/** What `error.type` is for a tool result with `isError: true` (the MCP conventions' value). */
export const ERROR_TYPE_VALUE_TOOL_ERROR = 'tool_error';

/** The workflow's own name (the face's name may differ: `expose.tool.name`). */
export const ATTR_MCPFLOW_WORKFLOW_NAME = 'mcpflow.workflow.name';
/**
 * The `@Workflow` `version` of the class the run started or resumed on: the workflow's own, or a
 * class kept in `previous` that resumed the state (DESIGN §2.16); absent when it declares none.
 */
export const ATTR_MCPFLOW_WORKFLOW_VERSION = 'mcpflow.workflow.version';
/** Which request of the run this is: 1 for the first, 2 for the retry that resumed it after one pause, … */
export const ATTR_MCPFLOW_RUN_ROUND = 'mcpflow.run.round';
/** On the link from a rerun's run span to the run it reruns (dev mode, `mcpflow/rerun`): `rerun`. */
export const ATTR_MCPFLOW_LINK_KIND = 'mcpflow.link.kind';
export const MCPFLOW_LINK_KIND_VALUE_RERUN = 'rerun';
/** How the request's share of the run ended: `_meta["mcpflow/execution"].status`, or `paused`. */
export const ATTR_MCPFLOW_EXECUTION_STATUS = 'mcpflow.execution.status';
/** The step the run stopped at (`_meta["mcpflow/execution"].stoppedAt`). */
export const ATTR_MCPFLOW_EXECUTION_STOPPED_AT = 'mcpflow.execution.stopped_at';
export const ATTR_MCPFLOW_STEP_NAME = 'mcpflow.step.name';
export const ATTR_MCPFLOW_STEP_INDEX = 'mcpflow.step.index';
/** The step's status, as `_meta["mcpflow/execution"].steps` reports it (an element's own, inside `forEach`). */
export const ATTR_MCPFLOW_STEP_STATUS = 'mcpflow.step.status';
/** A step of a parallel group: the group's first step, and how many steps it has. */
export const ATTR_MCPFLOW_STEP_GROUP_FIRST = 'mcpflow.step.group.first';
export const ATTR_MCPFLOW_STEP_GROUP_SIZE = 'mcpflow.step.group.size';
/** One element of a `forEach` step: its position and the array's length. */
export const ATTR_MCPFLOW_STEP_ITERATION_INDEX = 'mcpflow.step.iteration.index';
export const ATTR_MCPFLOW_STEP_ITERATION_COUNT = 'mcpflow.step.iteration.count';
/** A resource step's URI template, as written (never the URI filled with values). */
export const ATTR_MCPFLOW_RESOURCE_TEMPLATE = 'mcpflow.resource.template';
/** The event of a question put to the client, its kind (`user` or `model`) and key (`<step>/<argument>`). */
export const EVENT_MCPFLOW_ASK = 'mcpflow.ask';
export const ATTR_MCPFLOW_ASK_KIND = 'mcpflow.ask.kind';
export const ATTR_MCPFLOW_ASK_KEY = 'mcpflow.ask.key';
