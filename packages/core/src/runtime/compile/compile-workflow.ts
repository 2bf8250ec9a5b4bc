import { uriTemplateVariableNames, type DataSource, type StepModel, type WorkflowModel } from '../../model';
import { compileUri, type CompiledUri } from '../uri/expand-uri';
import { compileGuidance, type GuidanceRenderer } from './render-guidance';
import { compileResolver, type Resolver } from './resolve-source';

/** A data source with its resolver. */
export interface CompiledSource {
  readonly source: DataSource;
  readonly resolve: Resolver;
}

export interface CompiledArgument extends CompiledSource {
  readonly name: string;
  readonly sensitive: boolean;
}

export interface CompiledTemplateBinding extends CompiledSource {
  readonly variable: string;
}

/** A step with everything that does not depend on the request worked out. */
export interface CompiledStep {
  readonly model: StepModel;
  readonly index: number;
  readonly guidance?: GuidanceRenderer;
  readonly args: readonly CompiledArgument[];
  readonly templateBindings: readonly CompiledTemplateBinding[];
  /** The URI a resource step reads. */
  readonly resource?: CompiledUri;
  /** The URIs embedded for the LLM. */
  readonly resources: readonly CompiledUri[];
}

/** A validated workflow, ready to execute: built once at `use()`. */
export interface CompiledWorkflow {
  readonly model: WorkflowModel;
  readonly steps: readonly CompiledStep[];
  readonly sensitiveArguments: ReadonlySet<string>;
}

/** Compiles a validated workflow model: resolvers, guidance renderers and URI templates are built once. */
export function compileWorkflow(model: WorkflowModel): CompiledWorkflow {
  const sensitiveArguments = new Set(model.arguments.filter((argument) => argument.sensitive).map((argument) => argument.name));
  return { model, sensitiveArguments, steps: model.steps.map((step, index) => compileStep(step, index, sensitiveArguments)) };
}

function compileStep(step: StepModel, index: number, sensitiveArguments: ReadonlySet<string>): CompiledStep {
  const sensitiveArgs = new Set(step.sensitiveArgs);
  const uri = (template: string): CompiledUri => compileUri(template, uriTemplateVariableNames(template));
  return {
    model: step,
    index,
    guidance: step.guidance === undefined ? undefined : compileGuidance(step.guidance),
    args: step.args.map(({ name, source }) => ({
      name,
      source,
      resolve: compileResolver(source),
      sensitive: sensitiveArgs.has(name) || (source.kind === 'promptArg' && sensitiveArguments.has(source.name)),
    })),
    templateBindings: step.templateBindings.map(({ variable, source }) => ({ variable, source, resolve: compileResolver(source) })),
    resource: step.resource === undefined ? undefined : uri(step.resource),
    resources: step.resources.map(uri),
  };
}
