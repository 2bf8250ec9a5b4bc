import {
  DuplicateBindingError,
  DuplicateStepNameError,
  DuplicateWorkflowNameError,
  EmptyWorkflowError,
  ErrorCodes,
  InvalidStepActionError,
  InvalidStepOptionError,
  MisplacedDecoratorError,
  NotAWorkflowError,
  StepOutsideWorkflowError,
  checkClassWithoutWorkflow,
  checkWorkflowNames,
  validateWorkflow,
} from '@mcpflow/core/rules';
import { resourceStep, toolStep, workflow, type RuleCase } from '../plain-model';

/** The declaration's shape: steps and their action, names, bindings, decorators, step options, classes. */
export const structureCases: RuleCase[] = [
  {
    label: 'a workflow with a tool step and a resource step, bound once each, options in range',
    errors: () =>
      validateWorkflow(
        workflow([
          toolStep('list', { binding: 'pages', timeoutMs: 100, retry: { attempts: 3, backoffMs: 0 } }),
          resourceStep('guide', 'docs://guide', { binding: 'guide' }),
        ]),
      ),
    expected: [],
  },
  {
    label: 'a workflow with no step',
    errors: () => validateWorkflow(workflow([])),
    expected: [
      {
        type: EmptyWorkflowError,
        code: ErrorCodes.EmptyWorkflow,
        target: { kind: 'workflowName' },
        message:
          "Workflow 'report': class Report has no @Step property, so the prompt would run nothing and return only its plan. " +
          "Fix: add a step, such as @Step({ tool: '…' }) on a property of Report, or register a plain prompt with server.registerPrompt() instead.",
      },
    ],
  },
  {
    label: '@Bind on a property without @Step',
    errors: () => validateWorkflow(workflow([toolStep('list')], { strayDecorators: [{ property: 'notes', decorator: 'Bind' }] })),
    expected: [
      {
        type: MisplacedDecoratorError,
        code: ErrorCodes.MisplacedDecorator,
        target: { kind: 'strayDecorator', property: 'notes', decorator: 'Bind' },
        message:
          "Workflow 'report': property 'notes' has @Bind but no @Step, so nothing produces or uses it. " +
          "Fix: add @Step({ tool: '…' }) or @Step({ resource: '…' }) to 'notes', or remove the @Bind.",
      },
    ],
  },
  {
    label: 'a step with both a tool and a resource, and one with neither',
    errors: () =>
      validateWorkflow(
        workflow([
          toolStep('both', { extraActions: [{ kind: 'resource', uri: 'docs://guide' }] }),
          toolStep('none', { action: undefined }),
        ]),
      ),
    expected: [
      {
        type: InvalidStepActionError,
        code: ErrorCodes.InvalidStepAction,
        target: { kind: 'stepAction', step: 'both' },
        message:
          "Workflow 'report', step 'both': names both a tool and a resource. Fix: give @Step exactly one of { tool: 'name' } or { resource: 'scheme://uri' }.",
      },
      {
        type: InvalidStepActionError,
        code: ErrorCodes.InvalidStepAction,
        target: { kind: 'stepAction', step: 'none' },
        message:
          "Workflow 'report', step 'none': names neither a tool nor a resource. Fix: give @Step exactly one of { tool: 'name' } or { resource: 'scheme://uri' }.",
      },
    ],
  },
  {
    label: 'two steps with one name',
    errors: () => validateWorkflow(workflow([toolStep('list'), toolStep('list')])),
    expected: [
      {
        type: DuplicateStepNameError,
        code: ErrorCodes.DuplicateStepName,
        target: { kind: 'stepName', step: 'list' },
        message:
          "Workflow 'report', step 'list': another step of this workflow is already named 'list'. Fix: give one of them another name with @Step({ name: '…' }).",
      },
    ],
  },
  {
    label: 'two steps binding one name, and two @Bind on one step',
    errors: () =>
      validateWorkflow(
        workflow([
          toolStep('list', { binding: 'pages' }),
          toolStep('more', { binding: 'pages' }),
          toolStep('add', { binding: 'a', extraBindings: ['b'] }),
        ]),
      ),
    expected: [
      {
        type: DuplicateBindingError,
        code: ErrorCodes.DuplicateBinding,
        target: { kind: 'binding', step: 'more', binding: 'pages' },
        message:
          "Workflow 'report', step 'more': binds 'pages', which step 'list' already binds. Fix: give one of the two bindings another name.",
      },
      {
        type: DuplicateBindingError,
        code: ErrorCodes.DuplicateBinding,
        target: { kind: 'binding', step: 'add', binding: 'b' },
        message:
          "Workflow 'report', step 'add': has more than one @Bind ('b' is one of them): a step binds its output once. Fix: keep a single @Bind on this step.",
      },
    ],
  },
  {
    label: 'a negative timeout, zero retry attempts and a negative backoff',
    errors: () => validateWorkflow(workflow([toolStep('list', { timeoutMs: -5, retry: { attempts: 0, backoffMs: -1 } })])),
    expected: [
      {
        type: InvalidStepOptionError,
        code: ErrorCodes.InvalidStepOption,
        target: { kind: 'stepOption', step: 'list', option: 'timeoutMs' },
        message:
          "Workflow 'report', step 'list': option 'timeoutMs' is -5; it must be a positive number of milliseconds. Fix: set timeoutMs to a number above 0, or remove it.",
      },
      {
        type: InvalidStepOptionError,
        code: ErrorCodes.InvalidStepOption,
        target: { kind: 'stepOption', step: 'list', option: 'retry.attempts' },
        message:
          "Workflow 'report', step 'list': option 'retry.attempts' is 0; it counts every try, the first included. Fix: set retry.attempts to a whole number of at least 1.",
      },
      {
        type: InvalidStepOptionError,
        code: ErrorCodes.InvalidStepOption,
        target: { kind: 'stepOption', step: 'list', option: 'retry.backoffMs' },
        message:
          "Workflow 'report', step 'list': option 'retry.backoffMs' is -1; it must be 0 or more milliseconds. Fix: set retry.backoffMs to 0 or more, or remove it.",
      },
    ],
  },
  {
    label: 'two workflows with one prompt name',
    errors: () =>
      checkWorkflowNames([
        { name: 'report', className: 'Report' },
        { name: 'summary', className: 'Summary' },
        { name: 'report', className: 'WeeklyReport' },
      ]),
    expected: [
      {
        type: DuplicateWorkflowNameError,
        code: ErrorCodes.DuplicateWorkflowName,
        target: { kind: 'workflowName' },
        message:
          "Workflow 'report': class WeeklyReport uses the prompt name 'report', which class Report already uses. " +
          "Fix: give one of the two workflows another name in @Workflow({ name: '…' }).",
      },
    ],
  },
  {
    label: 'a class with @Step but no @Workflow: one error a step',
    errors: () => checkClassWithoutWorkflow('Helper', ['fetch', 'parse']),
    expected: ['fetch', 'parse'].map((property) => ({
      type: StepOutsideWorkflowError,
      code: ErrorCodes.StepOutsideWorkflow,
      target: { kind: 'strayDecorator', property, decorator: 'Step' },
      message: `Workflow 'Helper': class Helper has @Step on '${property}' but no @Workflow, so the step never runs. Fix: add @Workflow({ name: '…', description: '…' }) to class Helper.`,
    })),
  },
  {
    label: 'a class with neither @Workflow nor @Step',
    errors: () => checkClassWithoutWorkflow('Helper', []),
    expected: [
      {
        type: NotAWorkflowError,
        code: ErrorCodes.NotAWorkflow,
        target: { kind: 'workflowName' },
        message:
          "Workflow 'Helper': class Helper is not a workflow: it has no @Workflow. " +
          "Fix: decorate Helper with @Workflow({ name: '…', description: '…' }) before passing it to server.use().",
      },
    ],
  },
];
