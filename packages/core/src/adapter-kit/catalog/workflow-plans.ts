import { readStepRecords, readWorkflowModel, readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
import type { WorkflowModel } from '../../model';
import { WorkflowValidationError, checkClassWithoutWorkflow, validateWorkflow, type WorkflowDefinitionError } from '../../rules';
import {
  argumentsKeptSecret,
  constantsKeptSecret,
  planWorkflow,
  type CalledSecrets,
  type UriTemplateParser,
  type WorkflowPlan,
} from '../../engine';
import { workflowCallsOf } from './called-workflows';

const plansByParser = new WeakMap<UriTemplateParser, WorkflowPlans>();

/**
 * Workflow classes, each read and validated once and planned once, then reused: with a server per
 * request (stateless HTTP), `use()` costs a lookup, not a validation. One instance per SDK line
 * (plans expand URIs with that line's templates).
 *
 * @example
 * ```ts
 * const plans = WorkflowPlans.of(line.parseUriTemplate);
 * const { models, errors } = plans.check([GetHint]);
 * if (!errors.length) plans.plan(GetHint);
 * ```
 */
export class WorkflowPlans {
  private readonly valid = new WeakMap<WorkflowClass, WorkflowModel>();
  private readonly plans = new WeakMap<WorkflowClass, WorkflowPlan>();
  /** Classes being planned now: a cycle of calls (refused at `use()` before any plan) cannot recurse forever. */
  private readonly planning = new Set<WorkflowClass>();

  private constructor(private readonly parseUriTemplate: UriTemplateParser) {}

  /** The process's plans for a line's URI template parser: each class checked and planned once, however many servers use it. */
  static of(parseUriTemplate: UriTemplateParser): WorkflowPlans {
    let plans = plansByParser.get(parseUriTemplate);
    if (!plans) {
      plans = new WorkflowPlans(parseUriTemplate);
      plansByParser.set(parseUriTemplate, plans);
    }
    return plans;
  }

  /**
   * Each class's model, and every rule a class not yet found valid breaks. A class without
   * `@Workflow` throws at once: `StepOutsideWorkflowError` for each `@Step` it has, else `NotAWorkflowError`.
   */
  check(classes: readonly WorkflowClass[]): { models: WorkflowModel[]; errors: WorkflowDefinitionError[] } {
    const models = classes.map((target) => this.valid.get(target) ?? readWorkflowModel(target) ?? notAWorkflow(target));
    const errors = classes.flatMap((target, index) => {
      if (this.valid.has(target)) return [];
      const problems = validateWorkflow(models[index]);
      if (!problems.length) {
        this.valid.set(target, models[index]);
        // Its previous classes passed every rule with it (validateWorkflow checks them).
        for (const [at, previous] of (readWorkflowOptions(target)?.previous ?? []).entries())
          this.valid.set(previous, models[index].previous![at]!.model!);
      }
      return problems;
    });
    return { models, errors };
  }

  /**
   * The plan of a class `check` found valid — with the workflows its steps call by class planned
   * first, so that an argument it passes to one that keeps it secret is sensitive here as well.
   */
  plan(target: WorkflowClass): WorkflowPlan {
    let plan = this.plans.get(target);
    if (!plan) {
      const model = this.valid.get(target);
      if (!model) throw new Error(`workflow class ${target.name} was not checked before planning; call check() first`);
      plan = planWorkflow(model, this.parseUriTemplate, this.calledSecrets(target));
      const previous = readWorkflowOptions(target)?.previous ?? [];
      if (previous.length) plan = { ...plan, previous: previous.map((old) => this.plan(old)) };
      this.plans.set(target, plan);
    }
    return plan;
  }

  /** What the workflows the class calls by class keep secret: arguments by step position, and constants. */
  private calledSecrets(target: WorkflowClass): CalledSecrets | undefined {
    const calls = workflowCallsOf(target);
    if (calls.length === 0 || this.planning.has(target)) return undefined;
    this.planning.add(target);
    try {
      const kept = new Map<number, ReadonlySet<string>>();
      const constants: unknown[] = [];
      let held = false;
      for (const { position, definition } of calls) {
        const inner = definition.workflow;
        if (!this.valid.has(inner) || this.planning.has(inner)) continue;
        const plan = this.plan(inner);
        kept.set(position, argumentsKeptSecret(plan));
        constants.push(...constantsKeptSecret(plan));
        held ||= plan.heldSecrets;
      }
      return { arguments: (position) => kept.get(position), constants, held };
    } finally {
      this.planning.delete(target);
    }
  }
}

function notAWorkflow(target: WorkflowClass): never {
  const errors = checkClassWithoutWorkflow(
    target.name,
    readStepRecords(target).map((record) => record.property),
  );
  throw errors.length === 1 ? errors[0] : new WorkflowValidationError(errors);
}
