import {
  isResourceDefinition,
  isToolDefinition,
  type AnyDefinition,
  type AnyResourceDefinition,
  type AnyToolDefinition,
  type WorkflowModel,
} from '../../model';
import { readStepRecords, readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
import { DefinitionConflictError, type WorkflowDefinitionError } from '../../rules';

/** What else the server has registered under a definition's name (a plain `registerTool`, …). */
export interface RegisteredNames {
  hasTool(name: string): boolean;
  /** A resource registered under this name (a template) or this URI (a fixed resource). */
  hasResource(name: string, uri: string): boolean;
}

/**
 * The definitions a server has registered, by name, so `use()` registers each one a workflow calls
 * exactly once: the same definition again is fine; another definition, or another registration,
 * under its name is a `DefinitionConflictError`. SDK-free: each line's adapter registers what
 * `pending` returns in its own way.
 *
 * @example
 * ```ts
 * const { definitions, errors } = registry.pending(classes, models, registeredNames);
 * if (!errors.length) definitions.forEach((definition) => { registerOnTheSdk(definition); registry.add(definition); });
 * ```
 */
export class DefinitionRegistry {
  private readonly tools = new Map<string, AnyToolDefinition>();
  private readonly resources = new Map<string, AnyResourceDefinition>();

  /** Records a definition registered on the server. */
  add(definition: AnyDefinition): void {
    if (definition.kind === 'tool') this.tools.set(definition.name, definition);
    else this.resources.set(definition.name, definition);
  }

  /** True when this very definition is registered. */
  has(definition: AnyDefinition): boolean {
    return (definition.kind === 'tool' ? this.tools.get(definition.name) : this.resources.get(definition.name)) === definition;
  }

  /**
   * The definitions the classes reference (in their steps and instruction resources) that are not registered yet (each once), and a
   * conflict for each definition whose name is taken by something else. `models[i]` is `classes[i]` read.
   */
  pending(
    classes: readonly WorkflowClass[],
    models: readonly WorkflowModel[],
    registered: RegisteredNames,
  ): { definitions: AnyDefinition[]; errors: WorkflowDefinitionError[] } {
    const definitions: AnyDefinition[] = [];
    const errors: WorkflowDefinitionError[] = [];
    const chosen = new Map<string, AnyDefinition>();
    classes.forEach((target, index) => {
      const model = models[index];
      referencesOf(target, model).forEach(({ definition, step }) => {
        if (this.has(definition)) return;
        const key = `${definition.kind}:${definition.name}`;
        const other =
          chosen.get(key) ?? (definition.kind === 'tool' ? this.tools.get(definition.name) : this.resources.get(definition.name));
        if (other === definition) return;
        if (other !== undefined) {
          errors.push(
            new DefinitionConflictError(model.name, step, definition.kind, definition.name, `another ${definition.kind} definition`),
          );
        } else if (
          definition.kind === 'tool' ? registered.hasTool(definition.name) : registered.hasResource(definition.name, definition.uriTemplate)
        ) {
          errors.push(
            new DefinitionConflictError(
              model.name,
              step,
              definition.kind,
              definition.name,
              `a ${definition.kind} registered without this definition`,
            ),
          );
        } else {
          chosen.set(key, definition);
          definitions.push(definition);
        }
      });
    });
    return { definitions, errors };
  }
}

/** A definition a class references, and the step (or the instruction resources) that does. */
interface Reference {
  readonly definition: AnyDefinition;
  readonly step: string;
}

const referencesByClass = new WeakMap<WorkflowClass, readonly Reference[]>();

/** The definitions a class references, read from its metadata once: with a server per request, `use()` reads no step again. */
function referencesOf(target: WorkflowClass, model: WorkflowModel): readonly Reference[] {
  let references = referencesByClass.get(target);
  if (!references) {
    const found: { definition: AnyDefinition | undefined; step: string }[] = [
      ...(readWorkflowOptions(target)?.resources ?? []).map((resource) => ({
        definition: isResourceDefinition(resource) ? resource : undefined,
        step: '(instruction resources)',
      })),
      ...readStepRecords(target).map((record, position) => ({
        definition: isToolDefinition(record.options.tool)
          ? record.options.tool
          : isResourceDefinition(record.options.resource)
            ? record.options.resource
            : undefined,
        step: model.steps[position]?.name ?? record.property,
      })),
    ];
    references = found.filter((reference): reference is Reference => reference.definition !== undefined);
    referencesByClass.set(target, references);
  }
  return references;
}
