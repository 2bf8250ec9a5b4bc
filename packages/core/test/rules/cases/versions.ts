import { lockedWorkflow, readLock, lockText } from '@mcpflow/core/model';
import {
  ErrorCodes,
  InvalidPreviousVersionError,
  LockedShapeChangedError,
  LockedWorkflowGoneError,
  UnknownBindingError,
  checkLockedShapes,
  checkLockedWorkflows,
  validateWorkflow,
} from '@mcpflow/core/rules';
import { args, askUser, field, toolStep, workflow, type RuleCase } from '../plain-model';

const fix =
  "Fix: list in previous only classes of earlier versions of this workflow: each a @Workflow with name 'report' (docs/deploying.md).";
const previousError = (problem: string) => ({
  type: InvalidPreviousVersionError,
  code: ErrorCodes.InvalidPreviousVersion,
  target: { kind: 'workflowName' } as const,
  message: `Workflow 'report': ${problem} ${fix}`,
});

/** Versions (`@Workflow({ previous })`): each previous class an earlier version of the same workflow, checked by every rule. */
export const versionCases: RuleCase[] = [
  {
    label: 'an earlier version of the same workflow, with other steps',
    errors: () =>
      validateWorkflow(
        workflow([toolStep('fetch'), toolStep('summarise')], {
          version: '2',
          previous: [{ className: 'ReportV1', model: workflow([toolStep('fetch')], { className: 'ReportV1', version: '1' }) }],
        }),
      ),
    expected: [],
  },
  {
    label: 'previous classes that are no earlier version: none, another workflow, one keeping its own previous',
    errors: () =>
      validateWorkflow(
        workflow([toolStep('fetch')], {
          previous: [
            { className: 'Plain' },
            { className: 'Other', model: workflow([toolStep('fetch')], { name: 'other', className: 'Other' }) },
            {
              className: 'ReportV2',
              model: workflow([toolStep('fetch')], { className: 'ReportV2', previous: [{ className: 'ReportV1' }] }),
            },
          ],
        }),
      ),
    expected: [
      previousError('class Plain in previous has no @Workflow.'),
      previousError("class Other in previous is workflow 'other', not 'report'."),
      previousError('class ReportV2 in previous lists previous classes of its own: list them all in the latest class.'),
    ],
  },
  {
    label: 'a previous class is checked by every rule, as the workflow is',
    errors: () =>
      validateWorkflow(
        workflow([toolStep('fetch')], {
          previous: [
            {
              className: 'ReportV1',
              model: workflow([toolStep('fetch', { args: [{ name: 'x', source: field('nope', 'a') }] })], { className: 'ReportV1' }),
            },
          ],
        }),
      ),
    expected: [
      {
        type: UnknownBindingError,
        code: ErrorCodes.UnknownBinding,
        target: { kind: 'argSource', step: 'fetch', arg: 'x', part: 'binding' },
        message:
          "Workflow 'report', step 'fetch': reads binding 'nope', but no step binds it. Bindings available here: (none). Fix: add @Bind('nope') to an earlier step, or read one of the available bindings.",
      },
    ],
  },
];

/** v1 of `report`: fetch, then a step that asks (a run waits there), then summarise. */
const v1Steps = () => [toolStep('fetch'), toolStep('review', { args: args({ verdict: askUser('Ship it?') }) }), toolStep('summarise')];
const locked = lockedWorkflow(workflow(v1Steps(), { version: '1' }));
const lockFix =
  "Fix: keep the locked version's class (renamed, say ReportV1) and list it in @Workflow({ previous: [...] }) so those runs resume on it, or run `mcpflow lock` to accept that they are refused (docs/deploying.md).";

/** A workflow served as a task (it checkpoints before every step) and the same as a prompt only (it waits only where it asks). */
const asTask = { expose: { tool: { task: 'optional' as const } } };
const lockedTask = lockedWorkflow(workflow([toolStep('fetch'), toolStep('build')], asTask));
const lockedPrompt = lockedWorkflow(workflow([toolStep('fetch'), toolStep('build')]));

/** The lock check (`mcpflow.lock.json`): each prefix a run of the locked version can wait at stays resumable. */
export const lockCases: RuleCase[] = [
  {
    label: 'where a run can wait: a task before every step, a prompt only before a step that asks',
    errors: () => [
      ...checkLockedShapes(workflow([toolStep('fetch'), toolStep('lint'), toolStep('build')], asTask), lockedTask),
      // No step of the prompt-only version asks: no run of it can be paused, so nothing can be lost.
      ...checkLockedShapes(workflow([toolStep('fetch'), toolStep('lint'), toolStep('build')]), lockedPrompt),
    ],
    expected: [
      {
        type: LockedShapeChangedError,
        code: ErrorCodes.LockedShapeChanged,
        target: { kind: 'stepName', step: 'lint' },
        message:
          "Workflow 'report', step 'lint': step 2 was 'build' (tool 'build_tool', no binding) in the locked version and is now 'lint' (tool 'lint_tool', no binding), " +
          `so runs of the locked version (mcpflow.lock.json) waiting at this step or a later one cannot resume, and no class in previous has the locked steps. ${lockFix}`,
      },
    ],
  },
  {
    label: 'the locked steps, a step appended, a later step changed: every locked pause resumes',
    errors: () => [
      ...checkLockedShapes(workflow(v1Steps()), locked),
      ...checkLockedShapes(workflow([...v1Steps(), toolStep('publish')]), locked),
      ...checkLockedShapes(
        workflow([...v1Steps().slice(0, 2), toolStep('summarise', { action: { kind: 'tool', tool: 'other' } })]),
        locked,
      ),
      ...checkLockedShapes(workflow([toolStep('other')]), undefined),
    ],
    expected: [],
  },
  {
    label: 'a step inserted before the asking step, without previous, then with the locked class in previous',
    errors: () => [
      ...checkLockedShapes(workflow([toolStep('fetch'), toolStep('lint'), ...v1Steps().slice(1)]), locked),
      ...checkLockedShapes(
        workflow([toolStep('fetch'), toolStep('lint'), ...v1Steps().slice(1)], {
          previous: [{ className: 'ReportV1', model: workflow(v1Steps(), { className: 'ReportV1' }) }],
        }),
        locked,
      ),
    ],
    expected: [
      {
        type: LockedShapeChangedError,
        code: ErrorCodes.LockedShapeChanged,
        target: { kind: 'stepName', step: 'lint' },
        message:
          "Workflow 'report', step 'lint': step 2 was 'review' (tool 'review_tool', no binding, asking 'review/verdict') in the locked version and is now 'lint' (tool 'lint_tool', no binding), " +
          `so runs of the locked version (mcpflow.lock.json, version '1') waiting at this step or a later one cannot resume, and no class in previous has the locked steps. ${lockFix}`,
      },
    ],
  },
  {
    label: 'the lock keeps the classes of previous: dropping the one a locked pause depends on fails, keeping it passes',
    errors: () => {
      const v1 = { className: 'ReportV1', model: workflow(v1Steps(), { className: 'ReportV1', version: '1' }) };
      const v2Steps = () => [toolStep('fetch'), toolStep('lint'), ...v1Steps().slice(1)];
      // Locked as written, then read back: what tspc and mcpflow validate check against.
      const lock = readLock(lockText([{ model: workflow(v2Steps(), { version: '2', previous: [v1] }), project: 'tsconfig.json' }]));
      return [
        ...checkLockedShapes(workflow(v2Steps(), { version: '2', previous: [v1] }), lock.get('report')),
        ...checkLockedShapes(workflow(v2Steps(), { version: '2' }), lock.get('report')),
      ];
    },
    expected: [
      {
        type: LockedShapeChangedError,
        code: ErrorCodes.LockedShapeChanged,
        target: { kind: 'stepName', step: 'lint' },
        message:
          "Workflow 'report', step 'lint': step 2 was 'review' (tool 'review_tool', no binding, asking 'review/verdict') in the locked version and is now 'lint' (tool 'lint_tool', no binding), " +
          `so runs of the locked version (mcpflow.lock.json, version '1') waiting at this step or a later one cannot resume, and no class in previous has the locked steps. ${lockFix}`,
      },
    ],
  },
  {
    label: "a locked workflow its project no longer declares is 91050; another project's, or a format-1 entry, is not checked",
    errors: () => {
      const lock = readLock(
        lockText([
          { model: workflow(v1Steps()), project: 'tsconfig.json' },
          { model: { ...workflow(v1Steps()), name: 'elsewhere' }, project: 'other/tsconfig.json' },
        ]),
      );
      const format1 = readLock('{ "format": 1, "workflows": { "report": { "sealable": [], "steps": [] } } }');
      return [
        ...checkLockedWorkflows(lock, 'tsconfig.json', new Set(['report']), 'mcpflow.lock.json'),
        ...checkLockedWorkflows(lock, 'tsconfig.json', new Set(['report_renamed']), 'mcpflow.lock.json'),
        ...checkLockedWorkflows(format1, 'tsconfig.json', new Set(), 'mcpflow.lock.json'),
      ];
    },
    expected: [
      {
        type: LockedWorkflowGoneError,
        code: ErrorCodes.LockedShapeChanged,
        target: { kind: 'workflowName' },
        message:
          "Workflow 'report': mcpflow.lock.json locks workflow 'report', but no class of tsconfig.json declares it any more (deleted or renamed), " +
          "so its runs paused on the locked version will be refused. Fix: keep the class of 'report' (a renamed workflow is a new one: " +
          'paused runs resume only under the name they started with) until no run paused on it can be left, or run `mcpflow lock` to accept that they are refused (docs/deploying.md).',
      },
    ],
  },
];
