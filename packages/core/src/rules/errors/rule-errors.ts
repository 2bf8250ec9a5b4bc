/**
 * Every rule's error, one entry each, in code order: its title (the doc comment), the
 * arguments its check passes, and the problem and fix they read as. A new rule is an entry here,
 * its code in `ErrorCodes`, and its check. Users catch the classes by type.
 *
 * @example
 * ```ts
 * try {
 *   server.use(Review);
 * } catch (error) {
 *   if (error instanceof UnknownBindingError) console.error(error.code, error.step, error.fix);
 * }
 * ```
 */
import { closestName, didYouMean, listNames } from '../closest-name';
import { ruleError } from './rule-error';
import type { IssueTarget } from './workflow-definition-error';

/** Unknown binding: a step reads a binding that no step binds. */
export class UnknownBindingError extends ruleError(
  'UnknownBinding',
  (workflow: string, step: string, binding: string, available: readonly string[], target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `reads binding '${binding}', but no step binds it. Bindings available here: ${listNames(available)}.${didYouMean(binding, available)}`,
    fix: `add @Bind('${binding}') to an earlier step, or read one of the available bindings.`,
  }),
) {}

/** Binding used before it is bound: a step reads a binding that its own step or a later one binds. */
export class BindingUsedBeforeBoundError extends ruleError(
  'BindingUsedBeforeBound',
  (workflow: string, step: string, binding: string, boundBy: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    ...(boundBy === step
      ? {
          problem: `reads binding '${binding}', which this same step binds: a step cannot use its own output.`,
          fix: `read a binding of an earlier step instead.`,
        }
      : {
          problem: `reads binding '${binding}' before it is bound: step '${boundBy}' binds it and runs later.`,
          fix: `declare step '${boundBy}' above step '${step}' (steps run in declaration order).`,
        }),
  }),
) {}

/** Step name used as a binding: a step reads a step name where a binding name belongs. */
export class StepNameUsedAsBindingError extends ruleError(
  'StepNameUsedAsBinding',
  (workflow: string, step: string, name: string, bindingOfThatStep: string | undefined, target: IssueTarget) => ({
    workflow,
    step,
    target,
    ...(bindingOfThatStep
      ? {
          problem: `reads '${name}', which is a step name, not a binding. Step '${name}' is bound as '${bindingOfThatStep}'. Did you mean '${bindingOfThatStep}'?`,
          fix: `read the binding name '${bindingOfThatStep}' instead of the step name.`,
        }
      : {
          problem: `reads '${name}', which is a step name, not a binding. Step '${name}' has no @Bind.`,
          fix: `add @Bind('${name}') to step '${name}', or read an existing binding.`,
        }),
  }),
) {}

/** Undeclared prompt argument: a step reads a prompt argument the workflow does not declare. */
export class UndeclaredPromptArgumentError extends ruleError(
  'UndeclaredPromptArgument',
  (workflow: string, step: string, argument: string, declared: readonly string[], target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `reads prompt argument '${argument}', which the workflow does not declare. Declared arguments: ${listNames(declared)}.${didYouMean(argument, declared)}`,
    fix: `declare '${argument}' in @Workflow({ arguments: { ${argument}: z.string() } }), or read a declared argument.`,
  }),
) {}

/** Unbound URI variable: a URI holds a `{variable}` that no `@TemplateBinding` fills. */
export class UnboundUriVariableError extends ruleError(
  'UnboundUriVariable',
  (workflow: string, step: string, variable: string, uri: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `URI '${uri}' holds {${variable}}, but no @TemplateBinding('${variable}', …) fills it.`,
    fix: `add @TemplateBinding('${variable}', field('<binding>', '<path>')) (or promptArg/fromStep/constant) to this step.`,
  }),
) {}

/** Unused template binding: a `@TemplateBinding` names a variable that none of the step's URIs holds. */
export class UnusedTemplateBindingError extends ruleError(
  'UnusedTemplateBinding',
  (workflow: string, step: string, variable: string, variables: readonly string[], target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `@TemplateBinding('${variable}', …) fills no variable: this step's URIs hold ${
      variables.length ? variables.map((name) => `{${name}}`).join(', ') : 'no variables'
    }.${didYouMean(variable, variables)}`,
    fix: `rename it to a variable of the URI, add {${variable}} to the URI, or remove the @TemplateBinding.`,
  }),
) {}

/** Unknown guidance placeholder: guidance holds a `{placeholder}` that names no prompt argument. */
export class UnknownGuidancePlaceholderError extends ruleError(
  'UnknownGuidancePlaceholder',
  (workflow: string, step: string, placeholder: string, declared: readonly string[], target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `guidance holds {${placeholder}}, but the workflow declares no argument '${placeholder}'. Declared arguments: ${listNames(declared)}.${didYouMean(placeholder, declared)}`,
    fix: `use a declared argument's name, declare '${placeholder}', or write {{${placeholder}}} for literal braces.`,
  }),
) {}

/**
 * Duplicate binding: two steps (or two `@Bind`s on one step) bind the same name. `firstStep` is
 * the step that bound the name first; undefined when this same step binds twice.
 */
export class DuplicateBindingError extends ruleError(
  'DuplicateBinding',
  (workflow: string, step: string, binding: string, firstStep: string | undefined, target: IssueTarget) => ({
    workflow,
    step,
    target,
    ...(firstStep === undefined
      ? {
          problem: `has more than one @Bind ('${binding}' is one of them): a step binds its output once.`,
          fix: `keep a single @Bind on this step.`,
        }
      : { problem: `binds '${binding}', which step '${firstStep}' already binds.`, fix: `give one of the two bindings another name.` }),
  }),
) {}

/** Duplicate step name: two steps share a name. */
export class DuplicateStepNameError extends ruleError('DuplicateStepName', (workflow: string, step: string, target: IssueTarget) => ({
  workflow,
  step,
  target,
  problem: `another step of this workflow is already named '${step}'.`,
  fix: `give one of them another name with @Step({ name: '…' }).`,
})) {}

/** Duplicate workflow name: two workflows share a prompt name (in one file, or given to one server). */
export class DuplicateWorkflowNameError extends ruleError(
  'DuplicateWorkflowName',
  (workflow: string, className: string, firstClassName: string, target: IssueTarget = { kind: 'workflowName' }) => ({
    workflow,
    target,
    problem: `class ${className} uses the prompt name '${workflow}', which class ${firstClassName} already uses.`,
    fix: `give one of the two workflows another name in @Workflow({ name: '…' }).`,
  }),
) {}

/** Misplaced decorator: `@Bind` or `@TemplateBinding` on a property without `@Step`. */
export class MisplacedDecoratorError extends ruleError('MisplacedDecorator', (workflow: string, property: string, decorator: string) => ({
  workflow,
  target: { kind: 'strayDecorator', property, decorator },
  problem: `property '${property}' has @${decorator} but no @Step, so nothing produces or uses it.`,
  fix: `add @Step({ tool: '…' }) or @Step({ resource: '…' }) to '${property}', or remove the @${decorator}.`,
})) {}

/** Step outside a workflow: `@Step` in a class that has no `@Workflow` (at compile time, and when the class is given to `use()`). */
export class StepOutsideWorkflowError extends ruleError('StepOutsideWorkflow', (className: string, property: string) => ({
  workflow: className,
  target: { kind: 'strayDecorator', property, decorator: 'Step' },
  problem: `class ${className} has @Step on '${property}' but no @Workflow, so the step never runs.`,
  fix: `add @Workflow({ name: '…', description: '…' }) to class ${className}.`,
})) {}

/**
 * URI value type (code `TypeMismatch`): a URI variable filled with a value that is not a string,
 * number or boolean. `value` says what it would be filled with: `an array constant`, `a value of type { id: string; }`.
 */
export class UriValueTypeError extends ruleError(
  'TypeMismatch',
  (workflow: string, step: string, variable: string, value: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `{${variable}} would be filled with ${value}, but a URI variable takes a string, number or boolean.`,
    fix: `bind {${variable}} to a field of string, number or boolean type, such as field('<binding>', '<path>.id').`,
  }),
) {}

/**
 * Unregistered tool: a step calls a tool the server has not registered. When a registered tool's
 * name is close, the step's name is the odd one out, so the fix names the registered one: it never
 * proposes registering (or renaming anything to) the misspelled name first.
 */
export class UnregisteredToolError extends ruleError(
  'UnregisteredTool',
  (workflow: string, step: string, tool: string, registered: readonly string[]) => {
    const close = closestName(tool, registered);
    return {
      workflow,
      step,
      target: { kind: 'stepAction', step },
      problem: `calls tool '${tool}', which this server has not registered. Registered tools: ${listNames(registered)}.${didYouMean(tool, registered)}`,
      fix:
        close === undefined
          ? `register it with server.registerTool('${tool}', …) before connecting, or call a registered tool.`
          : `the step's tool name '${tool}' is the likely typo: write tool: '${close}' in step '${step}' (or its defineTool definition); ` +
            `if '${tool}' is a tool of its own, register it with server.registerTool('${tool}', …) before connecting.`,
    };
  },
) {}

/**
 * Unregistered resource: a step (or the workflow's instruction `resources`) reads or embeds a URI
 * that no registered resource or resource template serves.
 */
export class UnregisteredResourceError extends ruleError(
  'UnregisteredResource',
  (workflow: string, step: string | undefined, uri: string, registered: readonly string[], target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `uses resource '${uri}', which no registered resource or resource template serves. Registered: ${listNames(registered)}.`,
    fix: `register it with server.registerResource('…', '${uri}' or new ResourceTemplate('${uri}', …), …) before connecting.`,
  }),
) {}

/** Invalid step action: a step names both a tool and a resource, or neither. */
export class InvalidStepActionError extends ruleError('InvalidStepAction', (workflow: string, step: string, both: boolean) => ({
  workflow,
  step,
  target: { kind: 'stepAction', step },
  problem: both ? `names both a tool and a resource.` : `names neither a tool nor a resource.`,
  fix: `give @Step exactly one of { tool: 'name' } or { resource: 'scheme://uri' }.`,
})) {}

/** Invalid field path: a `field()` path with an empty segment. */
export class InvalidFieldPathError extends ruleError(
  'InvalidFieldPath',
  (workflow: string, step: string, path: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `field path '${path}' has an empty segment.`,
    fix: `write the path as names and array indexes joined by single dots, like 'items.0.name'.`,
  }),
) {}

/** Invalid URI template: a URI that cannot be read as an RFC 6570 template. */
export class InvalidUriTemplateError extends ruleError(
  'InvalidUriTemplate',
  (workflow: string, step: string, uri: string, detail: string, target: IssueTarget, fix?: string) => ({
    workflow,
    step,
    target,
    problem: `URI '${uri}' is not a valid RFC 6570 template: ${detail}.`,
    fix: fix ?? `close every '{' with '}' and name variables with letters, digits and '_'.`,
  }),
) {}

/** Invalid step option: a step option with a value it cannot take (a negative timeout, zero retry attempts, …). */
export class InvalidStepOptionError extends ruleError(
  'InvalidStepOption',
  (workflow: string, step: string, option: string, problem: string, fix: string) => ({
    workflow,
    step,
    target: { kind: 'stepOption', step, option },
    problem: `option '${option}' ${problem}`,
    fix,
  }),
) {}

/** Not a workflow: a class given to `server.use()` has no `@Workflow` (and no `@Step`: that is `StepOutsideWorkflowError`). */
export class NotAWorkflowError extends ruleError('NotAWorkflow', (className: string, hasSteps: boolean) => ({
  workflow: className,
  target: { kind: 'workflowName' },
  problem: `class ${className} is not a workflow: it has no @Workflow${hasSteps ? ' (it does have @Step properties)' : ''}.`,
  fix: `decorate ${className} with @Workflow({ name: '…', description: '…' }) before passing it to server.use().`,
})) {}

/** Empty workflow: a `@Workflow` class with no `@Step`, which would be served as a prompt that does nothing. */
export class EmptyWorkflowError extends ruleError('EmptyWorkflow', (workflow: string, className: string) => ({
  workflow,
  target: { kind: 'workflowName' },
  problem: `class ${className} has no @Step property, so the prompt would run nothing and return only its plan.`,
  fix: `add a step, such as @Step({ tool: '…' }) on a property of ${className}, or register a plain prompt with server.registerPrompt() instead.`,
})) {}

/**
 * Decorator mode: mcpflow's decorators are TypeScript's legacy (`experimentalDecorators`)
 * decorators. Called as standard ECMAScript decorators they would get no prototype to record on;
 * this says so instead of reflect-metadata's bare TypeError.
 */
export class DecoratorModeError extends ruleError('DecoratorMode', (workflow: string, where: string | undefined, problem: string) => ({
  workflow,
  where,
  target: { kind: 'workflowName' },
  problem,
  fix: 'set "experimentalDecorators": true in the compilerOptions of tsconfig.json (and of any tool that compiles your code, such as a bundler or test runner), then rebuild.',
})) {
  private constructor(workflow: string, where: string | undefined, problem: string) {
    super(workflow, where, problem);
  }

  /** At run time: a decorator was called with a standard decorator context (`{ kind, name, … }`). */
  static calledAsStandard(decorator: string, context: { readonly kind?: unknown; readonly name?: unknown }): DecoratorModeError {
    const name = String(context.name);
    const subject = context.kind === 'class' ? `class ${name}` : `property '${name}'`;
    return new DecoratorModeError(
      name,
      `@${decorator} on ${subject}`,
      `it was applied as a standard ECMAScript decorator, but mcpflow's decorators are TypeScript's legacy decorators: experimentalDecorators is off where this code was compiled.`,
    );
  }

  /** At compile time: the program compiles a workflow with `experimentalDecorators` off. */
  static compilerOptionOff(workflow: string): DecoratorModeError {
    return new DecoratorModeError(
      workflow,
      undefined,
      `this program compiles with experimentalDecorators off, so mcpflow's decorators would run as standard decorators and fail when the class loads.`,
    );
  }
}

/** Unknown tool argument: a step maps an argument the tool's input schema does not have (it would be dropped or refused). */
export class UnknownToolArgumentError extends ruleError(
  'UnknownToolArgument',
  (workflow: string, step: string, tool: string, argument: string, inputs: readonly string[]) => ({
    workflow,
    step,
    target: { kind: 'argSource', step, arg: argument, part: 'key' },
    problem: `maps argument '${argument}', but tool ${tool} has no such input. Its inputs: ${listNames(inputs)}.${didYouMean(argument, inputs)}`,
    fix: `rename the key in args to one of the tool's inputs, or remove it.`,
  }),
) {}

/**
 * Argument type: a step argument whose value cannot fit the tool's input — at compile time a
 * `fromStep`/`field` of the wrong type into a tool definition; at `connect()` a constant the input
 * schema rejects or a `promptArg` (always a string) into an input that takes no string.
 */
export class ArgumentTypeError extends ruleError(
  'ArgumentType',
  (workflow: string, step: string, tool: string, argument: string, problem: string, fix: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `argument '${argument}' of tool ${tool} ${problem}`,
    fix,
  }),
) {}

/** Definition conflict: two different tool (or resource) definitions, or a definition and another registration, under one name. */
export class DefinitionConflictError extends ruleError(
  'DefinitionConflict',
  (workflow: string, step: string, kind: 'tool' | 'resource', name: string, other: string) => ({
    workflow,
    step,
    target: { kind: 'stepAction', step },
    problem: `uses a ${kind} definition named '${name}', but ${other} is already registered under that name, so the server cannot tell which to run.`,
    fix: `use one definition object for '${name}' everywhere (export it from one module), or give one of them another name.`,
  }),
) {}

/** Nested ask: an ask whose `choices` or `context` is itself an ask; a question cannot wait on another question. */
export class NestedAskError extends ruleError(
  'NestedAsk',
  (workflow: string, step: string, ask: string, option: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `${ask}() takes its '${option}' from another ask; the values a question is built from must already be known when it is asked.`,
    fix: `ask in an earlier step, @Bind its answer, and read it here with fromStep() or field().`,
  }),
) {}

/** Unknown ask placeholder: an ask's text holds a `{placeholder}` that names neither a prompt argument nor (for askModel) a context entry. */
export class UnknownAskPlaceholderError extends ruleError(
  'UnknownAskPlaceholder',
  (workflow: string, step: string, ask: string, placeholder: string, known: readonly string[], target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `the ${ask}() text holds {${placeholder}}, which names none of the ${
      ask === 'askModel' ? 'prompt arguments and context entries' : 'prompt arguments'
    }: ${listNames(known)}.${didYouMean(placeholder, known)}`,
    fix:
      ask === 'askModel'
        ? `use a declared argument or add '${placeholder}' to the context option (context: { ${placeholder}: fromStep('…') }); write {{${placeholder}}} for literal braces.`
        : `use a declared argument's name, declare '${placeholder}', or write {{${placeholder}}} for literal braces.`,
  }),
) {}

/** Invalid ask option: an ask with a value it cannot take (an empty question, zero attempts, choices that are not a list). */
export class InvalidAskOptionError extends ruleError(
  'InvalidAskOption',
  (workflow: string, step: string, ask: string, problem: string, fix: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `${ask}() ${problem}`,
    fix,
  }),
) {}

/**
 * Ask answer type: an ask whose answer cannot fit the tool argument it fills (no `schema`, so a
 * string, into a `z.number()` input; or a schema of another type), so every answer would be
 * refused by the tool at run time.
 */
export class AskAnswerTypeError extends ruleError(
  'AskAnswerType',
  (workflow: string, step: string, ask: string, tool: string, argument: string, takes: string, answer: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `${ask}() fills argument '${argument}' of tool ${tool}, which takes ${takes}, but its answer is ${answer}.`,
    fix: `give the ask a schema of the argument's type (${ask}('…', { schema: z.coerce.number() }) for a number), or let the tool take a string.`,
  }),
) {}

// Faces: expose, skill names, workflows that call workflows.

/** Invalid expose option: `@Workflow({ expose })` with a value it cannot take, or one that serves the workflow under no face. */
export class InvalidExposeOptionError extends ruleError(
  'InvalidExposeOption',
  (workflow: string, option: string, problem: string, fix: string) => ({
    workflow,
    target: { kind: 'exposeOption', option },
    problem: `${option ? `expose.${option}` : 'expose'} ${problem}`,
    fix,
  }),
) {}

/**
 * Invalid skill name: a workflow served as a skill whose name (in SEP-2640 form: lowercase, `_` and
 * spaces as `-`) or description a skill cannot have.
 */
export class InvalidSkillNameError extends ruleError(
  'InvalidSkillName',
  (workflow: string, option: string, problem: string, fix: string) => ({
    workflow,
    target: option ? { kind: 'exposeOption', option } : { kind: 'workflowName' },
    problem: `as a skill, ${problem}`,
    fix,
  }),
) {}

/** Workflow cycle: workflows served as tools that call each other in a ring, which would never end. */
export class WorkflowCycleError extends ruleError('WorkflowCycle', (workflow: string, step: string, cycle: readonly string[]) => ({
  workflow,
  step,
  target: { kind: 'stepAction', step },
  problem: `calls workflow tool '${cycle[1]}', which leads back to this workflow: ${cycle.map((name) => `'${name}'`).join(' → ')}. A workflow cannot call itself, directly or through others.`,
  fix: `remove one call of the cycle, or move the shared steps into a workflow that calls none of these.`,
})) {}

/** Workflow tool not exposed: a step calls `workflowTool(Class)` for a workflow that is not served as a tool. */
export class WorkflowToolNotExposedError extends ruleError(
  'WorkflowToolNotExposed',
  (workflow: string, step: string, inner: string, className: string) => ({
    workflow,
    step,
    target: { kind: 'stepAction', step },
    problem: `calls workflow '${inner}' as a tool (workflowTool(${className})), but that workflow is not served as a tool.`,
    fix: `add expose: { tool: true } to the @Workflow options of class ${className}.`,
  }),
) {}

/** Skill face unavailable: a workflow served as a skill on a server whose SDK line has no skills extension (SDK 1.x). */
export class SkillFaceUnavailableError extends ruleError('SkillFaceUnavailable', (workflow: string, entry: string) => ({
  workflow,
  target: { kind: 'exposeOption', option: 'skill' },
  problem: `is exposed as a skill, but this server (${entry}) has no skills extension: SEP-2640 skills are served by MCP SDK 2.x.`,
  fix: `serve it with WorkflowServer from '@mcpflow/core/v2' (on @modelcontextprotocol/server 2.4 or later), or remove expose.skill.`,
})) {}

/** Task on a line without tasks: `expose.tool.task` on a server whose SDK line serves no MCP tasks (1.x). */
export class TaskFaceUnavailableError extends ruleError('TaskFaceUnavailable', (workflow: string, entry: string) => ({
  workflow,
  target: { kind: 'exposeOption', option: 'tool.task' },
  problem: `is exposed as a tool that runs as a task, but this server (${entry}) serves no MCP tasks: the tasks extension (SEP-2663) is served on MCP SDK 2.x.`,
  fix: `serve it with WorkflowServer from '@mcpflow/core/v2' (protocol 2026-07-28), or remove expose.tool.task.`,
})) {}

// Flow: parallel, when, forEach, instruction resources.

/** Parallel sibling binding: a `parallel` step reads the binding of a step in its own group, which runs at the same time. */
export class ParallelSiblingBindingError extends ruleError(
  'ParallelSiblingBinding',
  (workflow: string, step: string, binding: string, sibling: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `reads binding '${binding}' of step '${sibling}', which runs in the same parallel group, so it has no value yet.`,
    fix: `remove 'parallel: true' from step '${step}' (or from step '${sibling}') so it runs after '${sibling}', or read a binding bound before the group.`,
  }),
) {}

/** Item outside forEach: `item()` (or `{item}` in guidance) where there is no current element — a step without `forEach`, or the `forEach` source itself. */
export class ItemOutsideForEachError extends ruleError(
  'ItemOutsideForEach',
  (workflow: string, step: string, where: 'step' | 'forEach', target: IssueTarget) => ({
    workflow,
    step,
    target,
    ...(where === 'forEach'
      ? {
          problem: `reads item() in its own forEach source; the source is read before any element exists.`,
          fix: `make forEach read an array with fromStep('…') or field('…', '…').`,
        }
      : {
          problem: `reads item(), but the step has no forEach, so there is no current element.`,
          fix: `add forEach: fromStep('<array binding>') to step '${step}', or read the value with fromStep()/field() instead.`,
        }),
  }),
) {}

/** forEach over a non-array: a prompt argument (always a string), a non-array constant, or a non-array type. */
export class ForEachOverNonArrayError extends ruleError(
  'ForEachOverNonArray',
  (workflow: string, step: string, what: string, target: IssueTarget) => ({
    workflow,
    step,
    target,
    problem: `runs forEach over ${what}, which is not an array.`,
    fix: `point forEach at an array: fromStep('<binding>') or field('<binding>', '<path>') whose type is an array, or an array constant().`,
  }),
) {}

/** Workflow resource variable: an instruction resource URI with a `{variable}` (or a stray brace), which nothing can fill. */
export class WorkflowResourceVariableError extends ruleError(
  'WorkflowResourceVariable',
  (workflow: string, uri: string, target: IssueTarget) => ({
    workflow,
    target,
    problem: `instruction resource '${uri}' holds a '{…}' template expression, but workflow resources are embedded before any step runs, so nothing can fill it.`,
    fix: `use a fixed URI in @Workflow({ resources }), or move the URI to a step's resources and fill it with @TemplateBinding.`,
  }),
) {}

/**
 * Prompt argument type: a workflow served as a prompt declares an argument whose schema takes no
 * string, but MCP prompt arguments are strings: every `prompts/get` would be refused.
 */
export class PromptArgumentTypeError extends ruleError('PromptArgumentType', (workflow: string, argument: string) => ({
  workflow,
  target: { kind: 'argumentName', argument },
  problem: `argument '${argument}' takes no string, but the workflow is served as a prompt, whose arguments are strings: every prompts/get would be refused.`,
  fix: `declare '${argument}' as a string (z.string(), or z.coerce.number() to convert it), or serve the workflow only as a tool (expose: { prompt: false, tool: true }), whose arguments may have any schema.`,
})) {}

/** Invalid previous version: a class in `@Workflow({ previous })` is not an earlier version of this workflow. */
export class InvalidPreviousVersionError extends ruleError(
  'InvalidPreviousVersion',
  (workflow: string, className: string, problem: string) => ({
    workflow,
    target: { kind: 'workflowName' },
    problem: `class ${className} in previous ${problem}`,
    fix: `list in previous only classes of earlier versions of this workflow: each a @Workflow with name '${workflow}' (docs/deploying.md).`,
  }),
) {}

/**
 * Locked shape changed: the workflow no longer has the steps of the version `mcpflow.lock.json`
 * records up to where a run of it can wait, and no class in `previous` has them, so every run paused
 * (or task waiting) on that version would be refused after the deploy (DESIGN §2.16).
 */
export class LockedShapeChangedError extends ruleError(
  'LockedShapeChanged',
  (workflow: string, step: string | undefined, change: string, version: string | undefined) => ({
    workflow,
    ...(step === undefined ? {} : { step }),
    target: step === undefined ? { kind: 'workflowName' } : { kind: 'stepName', step },
    problem:
      `${change}, so runs of the locked version (mcpflow.lock.json${version === undefined ? '' : `, version '${version}'`}) ` +
      `waiting at this step or a later one cannot resume, and no class in previous has the locked steps.`,
    fix:
      `keep the locked version's class (renamed, say ${workflowClassHint(workflow)}V1) and list it in @Workflow({ previous: [...] }) so those runs resume on it, ` +
      'or run `mcpflow lock` to accept that they are refused (docs/deploying.md).',
  }),
) {}

/** Locked workflow gone: `mcpflow.lock.json` has a workflow no class of its project declares any more (deleted or renamed); code 91050. */
export class LockedWorkflowGoneError extends ruleError('LockedShapeChanged', (workflow: string, file: string, project: string) => ({
  workflow,
  target: { kind: 'workflowName' },
  problem:
    `${file} locks workflow '${workflow}', but no class of ${project} declares it any more (deleted or renamed), ` +
    'so its runs paused on the locked version will be refused.',
  fix:
    `keep the class of '${workflow}' (a renamed workflow is a new one: paused runs resume only under the name they started with) ` +
    'until no run paused on it can be left, or run `mcpflow lock` to accept that they are refused (docs/deploying.md).',
})) {}

/** Invalid lock file: `mcpflow.lock.json` is there but is not a lock `mcpflow lock` wrote. */
export class InvalidLockFileError extends ruleError('InvalidLockFile', (workflow: string, file: string, problem: string) => ({
  workflow,
  target: { kind: 'workflowName' },
  problem: `${file} cannot be read as the lock of the project's workflows: ${problem}.`,
  fix: 'run `mcpflow lock` to write it again, or delete it to check no locked version (docs/deploying.md).',
})) {}

/** A class name for a workflow name, to show the fix: `nightly_build` → `NightlyBuild`. */
function workflowClassHint(workflow: string): string {
  return workflow.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_match, _gap: string, letter: string) => letter.toUpperCase());
}
