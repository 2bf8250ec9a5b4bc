import {
  argumentAskKey,
  fillAskKey,
  isAskSource,
  parallelGroups,
  shownValues,
  stepActionUri,
  uriTemplateVariableNames,
  type AskSource,
  type DataSource,
  type ShownValues,
  type StepAction,
  type StepModel,
  type WorkflowModel,
  workflowShapes,
} from '../../model';
import { planUri, type PlannedUri } from '../uri/expand-uri';
import type { UriTemplateParser } from '../uri/uri-template';
import { planCondition, type PlannedCondition } from './plan-condition';
import { planGuidance, type GuidanceRenderer } from './render-guidance';
import { planResolver, type Resolver } from './resolve-source';

/** A data source with its resolver. */
export interface PlannedSource {
  readonly source: DataSource;
  readonly resolve: Resolver;
  /** The value is the client's own: a prompt argument or an answer (shown marked as client text, see `Redactor.client`). */
  readonly fromClient: boolean;
}

export interface PlannedArgument extends PlannedSource {
  readonly name: string;
  readonly sensitive: boolean;
}

/** A URI variable and the source that fills it. */
export interface PlannedFill extends PlannedSource {
  readonly variable: string;
}

/** A question a step puts to the client before it runs: an `askUser`/`askModel` in its arguments or URI variables. */
export interface PlannedAsk {
  /** Unique in the workflow, stable across deployments: `<step>/<argument>` or `<step>/{<variable>}`. */
  readonly key: string;
  /** The form field the answer is given in: the argument or variable name. */
  readonly field: string;
  readonly source: AskSource;
  /** The answer is redacted: the ask says so, or it fills a sensitive argument. */
  readonly sensitive: boolean;
}

/** A step with everything that does not depend on the request worked out. */
export interface PlannedStep {
  readonly model: StepModel;
  readonly index: number;
  /** What the step does (call a tool, read a resource): the engine runs it by its kind (`STEP_KINDS`). */
  readonly action: StepAction;
  readonly guidance?: GuidanceRenderer;
  readonly args: readonly PlannedArgument[];
  /** The URI variables filled for the step's URIs (its action's and its `resources`). */
  readonly fills: readonly PlannedFill[];
  /** The URI template the action reads, parsed once (the action table says which, if any). */
  readonly actionUri?: PlannedUri;
  /** The URIs embedded for the LLM. */
  readonly resources: readonly PlannedUri[];
  /** The questions the step asks before it runs, all in one round. */
  readonly asks: readonly PlannedAsk[];
  readonly when?: PlannedCondition;
  /** Reads the array a `forEach` step runs over. */
  readonly forEach?: Resolver;
  /** True when the step has a flow option beyond `parallel` (when, forEach, transform, optional). */
  readonly hasFlow: boolean;
}

/** A validated workflow, ready to execute: built once per class, at `use()`. */
export interface WorkflowPlan {
  readonly model: WorkflowModel;
  readonly steps: readonly PlannedStep[];
  /** The units that run one after another: a parallel group, or one step (see `parallelGroups`). */
  readonly groups: readonly (readonly PlannedStep[])[];
  readonly sensitiveArguments: ReadonlySet<string>;
  /** Every step argument that is sensitive, in step order: what a run learns secrets from besides the prompt's arguments. */
  readonly sensitiveStepArguments: readonly PlannedArgument[];
  /**
   * Whether a run can hold a secret the client did not supply (a sensitive argument from a
   * constant, a binding or a loop's element): only then is the client's own text marked apart.
   */
  readonly heldSecrets: boolean;
  /**
   * The sensitive constants of the workflows this one runs as steps, at any depth: secrets of the
   * run from its start, held by the server, so that one the outer run meets again (a later tool
   * echoes it) is redacted as it is in the inner run.
   */
  readonly calledConstants: readonly unknown[];
  /** Each step's shape (`stepShape`): what a sealed state's position refers to, compared on resume (DESIGN §2.16). */
  readonly shapes: readonly string[];
  /** The plans of the classes in `@Workflow({ previous })`: a state none of whose passed steps this plan matches may resume on one of them. */
  readonly previous?: readonly WorkflowPlan[];
}

/** What the workflows a workflow's steps run (sub-workflows, `workflowTool(Inner)`) keep secret. */
export interface CalledSecrets {
  /** By step position: the arguments the workflow that step runs keeps secret (see `argumentsKeptSecret`). */
  arguments(position: number): ReadonlySet<string> | undefined;
  /** The sensitive constants of every workflow the steps run, at any depth (see `constantsKeptSecret`). */
  readonly constants: readonly unknown[];
  /** Whether a workflow the steps run can hold a secret the client did not supply (it hands its secrets back: `handBackSecrets`). */
  readonly held: boolean;
}

/**
 * Plans a validated workflow model: resolvers, guidance renderers and URI templates are built once,
 * at `use()`, not per request. `called` says what the workflows its steps run keep secret: a
 * sub-workflow step's arguments the inner workflow keeps secret are sensitive here too, so a value
 * the outer run passes in is redacted in the outer trace as in the inner one (issue 31, point 11);
 * and their sensitive constants are secrets of this run as well.
 *
 * @example
 * ```ts
 * const plan = planWorkflow(model, (template) => new UriTemplate(template));
 * ```
 */
export function planWorkflow(model: WorkflowModel, parseUriTemplate: UriTemplateParser, called?: CalledSecrets): WorkflowPlan {
  const sensitiveArguments = new Set(model.arguments.filter((argument) => argument.sensitive).map((argument) => argument.name));
  // A skipped step's reason names its condition: with no value compared with a sensitive source.
  const shown = shownValues(model);
  const steps = model.steps.map((step, index) =>
    planStep(step, index, sensitiveArguments, shown, parseUriTemplate, called?.arguments(index)),
  );
  const calledConstants = called?.constants ?? [];
  const sensitiveStepArguments = steps.flatMap((step) => step.args.filter((argument) => argument.sensitive));
  return {
    model,
    sensitiveArguments,
    sensitiveStepArguments,
    heldSecrets: called?.held === true || calledConstants.length > 0 || sensitiveStepArguments.some((argument) => !argument.fromClient),
    calledConstants,
    steps,
    shapes: workflowShapes(model),
    groups: parallelGroups(steps.map((step) => ({ step, parallel: step.model.parallel }))).map((group) => group.map(({ step }) => step)),
  };
}

/**
 * The arguments a run of `plan` keeps secret: its sensitive arguments, and those that feed a
 * sensitive step argument — one of its own, or one a workflow it calls keeps secret, at any depth.
 *
 * @example
 * ```ts
 * argumentsKeptSecret(planWorkflow(deploy, parse)); // Set { 'pin' }
 * ```
 */
export function argumentsKeptSecret(plan: WorkflowPlan): ReadonlySet<string> {
  const kept = new Set(plan.sensitiveArguments);
  for (const argument of plan.sensitiveStepArguments) if (argument.source.kind === 'promptArg') kept.add(argument.source.name);
  return kept;
}

/** The sensitive constants a run of `plan` holds: its own steps', and those of the workflows it runs, at any depth. */
export function constantsKeptSecret(plan: WorkflowPlan): readonly unknown[] {
  const constants = [...plan.calledConstants];
  for (const { source } of plan.sensitiveStepArguments) if (source.kind === 'constant') constants.push(source.value);
  return constants;
}

function planStep(
  step: StepModel,
  index: number,
  sensitiveArguments: ReadonlySet<string>,
  shown: ShownValues,
  parseUriTemplate: UriTemplateParser,
  calledSecrets: ReadonlySet<string> | undefined,
): PlannedStep {
  const sensitiveArgs = new Set(step.sensitiveArgs);
  for (const name of calledSecrets ?? []) sensitiveArgs.add(name);
  const uri = (template: string): PlannedUri => planUri(template, uriTemplateVariableNames(template), parseUriTemplate);
  const asks: PlannedAsk[] = [];
  const ask = (key: string, field: string, source: DataSource, sensitive: boolean): string => {
    if (isAskSource(source)) asks.push({ key, field, source, sensitive: sensitive || source.sensitive === true });
    return key;
  };
  if (step.action === undefined) throw new Error(`step '${step.name}' names no action; give @Step exactly one of tool and resource`);
  const actionUri = stepActionUri(step);
  return {
    model: step,
    index,
    action: step.action,
    guidance: step.guidance === undefined ? undefined : planGuidance(step.guidance, step.forEach !== undefined),
    args: step.args.map(({ name, source }) => {
      const sensitive =
        sensitiveArgs.has(name) ||
        (source.kind === 'promptArg' && sensitiveArguments.has(source.name)) ||
        (isAskSource(source) && source.sensitive === true);
      const resolve = planResolver(source, ask(argumentAskKey(step.name, name), name, source, sensitive));
      return { name, source, sensitive, resolve, fromClient: fromClient(source) };
    }),
    fills: step.fills.map(({ variable, source }) => ({
      variable,
      source,
      resolve: planResolver(source, ask(fillAskKey(step.name, variable), variable, source, false)),
      fromClient: fromClient(source),
    })),
    actionUri: actionUri === undefined ? undefined : uri(actionUri),
    resources: step.resources.map(uri),
    asks,
    when: step.when === undefined ? undefined : planCondition(step.when, shown),
    forEach: step.forEach === undefined ? undefined : planResolver(step.forEach),
    hasFlow: step.when !== undefined || step.forEach !== undefined || step.transform !== undefined || step.optional,
  };
}

function fromClient(source: DataSource): boolean {
  return source.kind === 'promptArg' || isAskSource(source);
}
