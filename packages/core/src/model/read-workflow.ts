import 'reflect-metadata';
import {
  BINDINGS_METADATA,
  STEPS_METADATA,
  TEMPLATE_BINDINGS_METADATA,
  WORKFLOW_METADATA,
  type ArgumentSchemaLike,
  type StepRecord,
  type TemplateBindingRecord,
  type WorkflowOptions,
} from './metadata';
import { readStepActions } from './read-step-action';
import type { ArgumentModel, StepModel, StrayDecorator, WorkflowModel } from './workflow-model';

/** Anything `new`-able: a decorated workflow class. */
export type WorkflowClass = abstract new (...args: never[]) => unknown;

/** The `@Workflow` options recorded on a class, if it has them. */
export function readWorkflowOptions(target: WorkflowClass): WorkflowOptions | undefined {
  return Reflect.getOwnMetadata(WORKFLOW_METADATA, target) as WorkflowOptions | undefined;
}

/** The `@Step` records of a class (its own and inherited), in declaration order. */
export function readStepRecords(target: WorkflowClass): readonly StepRecord[] {
  return (Reflect.getMetadata(STEPS_METADATA, target.prototype as object) as StepRecord[] | undefined) ?? [];
}

/**
 * Reads a decorated class into the plain workflow model. Returns undefined when the class has no
 * `@Workflow`. Does not validate: the rules do that, the same way for the runtime and the compiler.
 */
export function readWorkflowModel(target: WorkflowClass): WorkflowModel | undefined {
  const options = readWorkflowOptions(target);
  if (!options) return undefined;
  const prototype = target.prototype as object;
  const bindings = (Reflect.getMetadata(BINDINGS_METADATA, prototype) as Map<string, string[]> | undefined) ?? new Map<string, string[]>();
  const templates =
    (Reflect.getMetadata(TEMPLATE_BINDINGS_METADATA, prototype) as Map<string, TemplateBindingRecord[]> | undefined) ??
    new Map<string, TemplateBindingRecord[]>();
  const records = readStepRecords(target);
  const stepProperties = new Set(records.map((record) => record.property));

  const steps = records.map((record): StepModel => {
    const { options: step, property } = record;
    const bound = bindings.get(property) ?? [];
    return {
      name: step.name ?? property,
      property,
      ...readStepActions(step),
      args: Object.entries(step.args ?? {}).map(([name, source]) => ({ name, source })),
      resources: step.resources ?? [],
      guidance: step.guidance,
      binding: bound[0],
      extraBindings: bound.slice(1),
      fills: (templates.get(property) ?? []).map(({ variable, source }) => ({ variable, source })),
      timeoutMs: step.timeoutMs,
      retry: step.retry,
      sensitiveArgs: step.sensitiveArgs ?? [],
      parallel: step.parallel === true,
      when: step.when,
      forEach: step.forEach,
      concurrency: step.concurrency,
      maxItems: step.maxItems,
      optional: step.optional === true,
      transform: step.transform,
    };
  });

  const strayDecorators: StrayDecorator[] = [];
  for (const property of bindings.keys()) {
    if (!stepProperties.has(property)) strayDecorators.push({ property, decorator: 'Bind' });
  }
  for (const property of templates.keys()) {
    if (!stepProperties.has(property)) strayDecorators.push({ property, decorator: 'TemplateBinding' });
  }

  const sensitive = new Set(options.sensitiveArguments ?? []);
  return {
    name: options.name,
    className: target.name,
    title: options.title,
    description: options.description,
    arguments: Object.entries(options.arguments ?? {}).map(([name, schema]) => readArgument(name, schema, sensitive.has(name))),
    instructions: options.instructions ?? [],
    resources: (options.resources ?? []).map((resource) =>
      typeof resource === 'object' && resource !== null ? resource.uriTemplate : resource,
    ),
    steps,
    strayDecorators,
    ...(options.expose === undefined ? {} : { expose: options.expose }),
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(options.previous === undefined
      ? {}
      : { previous: options.previous.map((previous) => ({ className: previous.name, model: readWorkflowModel(previous) })) }),
  };
}

function readArgument(name: string, schema: ArgumentSchemaLike, sensitive: boolean): ArgumentModel {
  return { name, required: !schema.safeParse(undefined).success, description: schema.description, sensitive };
}
