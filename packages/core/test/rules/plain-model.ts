import type { ErrorCode, IssueTarget, WorkflowDefinitionError } from '@mcpflow/core/rules';
import type { DataSource, JsonValue, StepModel, WorkflowModel } from '@mcpflow/core/model';

// Plain model objects, as either reader builds them: no decorators, no SDK, no server.

/** The workflow `report` (class `Report`, argument `project`) with the given steps. */
export function workflow(steps: StepModel[], extra: Partial<WorkflowModel> = {}): WorkflowModel {
  return {
    name: 'report',
    className: 'Report',
    arguments: [{ name: 'project', required: true }],
    instructions: [],
    resources: [],
    steps,
    strayDecorators: [],
    ...extra,
  };
}

/** A step that calls the tool `<name>_tool` (or the action `extra.action`). */
export function toolStep(name: string, extra: Partial<StepModel> = {}): StepModel {
  return {
    name,
    property: name,
    action: { kind: 'tool', tool: `${name}_tool` },
    extraActions: [],
    args: [],
    resources: [],
    extraBindings: [],
    fills: [],
    sensitiveArgs: [],
    parallel: false,
    optional: false,
    ...extra,
  };
}

/** A step that reads the resource `uri`. */
export function resourceStep(name: string, uri: string, extra: Partial<StepModel> = {}): StepModel {
  return toolStep(name, { action: { kind: 'resource', uri }, ...extra });
}

/** The action of a step that calls the tool `tool`. */
export const callTool = (tool: string): StepModel['action'] => ({ kind: 'tool', tool });

/** A step's `args`, from a record of data sources. */
export function args(sources: Record<string, DataSource>): StepModel['args'] {
  return Object.entries(sources).map(([name, source]) => ({ name, source }));
}

/** Data sources as plain records (what `promptArg()`, `fromStep()`, … return). */
export const promptArg = (name: string): DataSource => ({ kind: 'promptArg', name });
export const fromStep = (binding: string): DataSource => ({ kind: 'fromStep', binding });
export const field = (binding: string, path: string): DataSource => ({ kind: 'field', binding, path });
export const constant = (value: JsonValue): DataSource => ({ kind: 'constant', value });
export const item = (path?: string): DataSource => (path === undefined ? { kind: 'item' } : { kind: 'item', path });
export const askUser = (message: string, options: Record<string, unknown> = {}): DataSource => ({ kind: 'askUser', message, ...options });
export const askModel = (prompt: string, options: Record<string, unknown> = {}): DataSource => ({ kind: 'askModel', prompt, ...options });

/** One error a rule must report: its class, code, target and whole message. */
export interface ExpectedError {
  readonly type: abstract new (...args: never[]) => WorkflowDefinitionError;
  readonly code: ErrorCode;
  readonly target: IssueTarget;
  readonly message: string;
}

/** A row of a rule table: a rule run on a plain model, and exactly what it reports (nothing, for a model it accepts). */
export interface RuleCase {
  readonly label: string;
  readonly errors: () => readonly WorkflowDefinitionError[];
  readonly expected: readonly ExpectedError[];
}
