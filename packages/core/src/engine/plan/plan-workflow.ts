import { uriTemplateVariableNames, type DataSource, type StepModel, type WorkflowModel } from '../../model';
import type { StepKind } from '../steps/step-kind';
import { stepKindOf } from '../steps/step-kinds';
import { planUri, type PlannedUri } from '../uri/expand-uri';
import type { UriTemplateParser } from '../uri/uri-template';
import { planGuidance, type GuidanceRenderer } from './render-guidance';
import { planResolver, type Resolver } from './resolve-source';

/** A data source with its resolver. */
export interface PlannedSource {
  readonly source: DataSource;
  readonly resolve: Resolver;
}

export interface PlannedArgument extends PlannedSource {
  readonly name: string;
  readonly sensitive: boolean;
}

export interface PlannedTemplateBinding extends PlannedSource {
  readonly variable: string;
}

/** A step with everything that does not depend on the request worked out. */
export interface PlannedStep {
  readonly model: StepModel;
  readonly index: number;
  /** What the step does (call a tool, read a resource): the engine dispatches on it. */
  readonly kind: StepKind;
  readonly guidance?: GuidanceRenderer;
  readonly args: readonly PlannedArgument[];
  readonly templateBindings: readonly PlannedTemplateBinding[];
  /** The URI a resource step reads. */
  readonly resource?: PlannedUri;
  /** The URIs embedded for the LLM. */
  readonly resources: readonly PlannedUri[];
}

/** A validated workflow, ready to execute: built once per class, at `use()`. */
export interface WorkflowPlan {
  readonly model: WorkflowModel;
  readonly steps: readonly PlannedStep[];
  readonly sensitiveArguments: ReadonlySet<string>;
}

/**
 * Plans a validated workflow model: resolvers, guidance renderers and URI templates are built once,
 * and each step's kind is looked up once.
 *
 * @example
 * ```ts
 * const plan = planWorkflow(model, (template) => new UriTemplate(template));
 * ```
 */
export function planWorkflow(model: WorkflowModel, parseUriTemplate: UriTemplateParser): WorkflowPlan {
  const sensitiveArguments = new Set(model.arguments.filter((argument) => argument.sensitive).map((argument) => argument.name));
  return { model, sensitiveArguments, steps: model.steps.map((step, index) => planStep(step, index, sensitiveArguments, parseUriTemplate)) };
}

function planStep(step: StepModel, index: number, sensitiveArguments: ReadonlySet<string>, parseUriTemplate: UriTemplateParser): PlannedStep {
  const sensitiveArgs = new Set(step.sensitiveArgs);
  const uri = (template: string): PlannedUri => planUri(template, uriTemplateVariableNames(template), parseUriTemplate);
  return {
    model: step,
    index,
    kind: stepKindOf(step),
    guidance: step.guidance === undefined ? undefined : planGuidance(step.guidance),
    args: step.args.map(({ name, source }) => ({
      name,
      source,
      resolve: planResolver(source),
      sensitive: sensitiveArgs.has(name) || (source.kind === 'promptArg' && sensitiveArguments.has(source.name)),
    })),
    templateBindings: step.templateBindings.map(({ variable, source }) => ({ variable, source, resolve: planResolver(source) })),
    resource: step.resource === undefined ? undefined : uri(step.resource),
    resources: step.resources.map(uri),
  };
}
