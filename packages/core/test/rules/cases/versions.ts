import { ErrorCodes, InvalidPreviousVersionError, UnknownBindingError, validateWorkflow } from '@mcpflow/core/rules';
import { field, toolStep, workflow, type RuleCase } from '../plain-model';

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
