import { ErrorCodes, type WorkflowDefinitionError } from '@mcpflow/core/rules';
import { askCases } from './cases/asks';
import { dataSourceCases } from './cases/data-sources';
import { faceCases, workflowCallCases } from './cases/faces';
import { flowCases } from './cases/flow';
import { registryCases } from './cases/registry';
import { structureCases } from './cases/structure';
import { uriTemplateCases } from './cases/uri-templates';
import { lockCases, versionCases } from './cases/versions';
import type { RuleCase } from './plain-model';

// Every rule, table-tested on plain model objects: no decorators, no SDK, no server.
const groups: [string, RuleCase[]][] = [
  ['structure', structureCases],
  ['data sources', dataSourceCases],
  ['flow', flowCases],
  ['URI templates and texts', uriTemplateCases],
  ['asks', askCases],
  ['what the server registers', registryCases],
  ['faces', faceCases],
  ['workflow calls', workflowCallCases],
  ['versions', versionCases],
  ['the lock check', lockCases],
];

const seen = (error: WorkflowDefinitionError) => ({
  type: error.constructor,
  code: error.code,
  target: error.target,
  message: error.message,
});

describe.each(groups)('rules on plain models: %s', (_group, cases) => {
  test.each(cases.map((each) => [each.label, each] as const))('%s', (_label, { errors, expected }) => {
    const found = errors();
    expect(found.map(seen)).toEqual(expected);
    for (const error of found) {
      // What users catch and read: the class by type and name, and a message built from the fields.
      expect(error.name).toBe(error.constructor.name);
      const where = error.step === undefined ? `Workflow '${error.workflow}'` : `Workflow '${error.workflow}', step '${error.step}'`;
      expect(error.message).toBe(`${where}: ${error.problem} Fix: ${error.fix}`);
    }
  });
});

describe('the rule tables', () => {
  test('ErrorCodes keeps every name and number', () => {
    // Written out on purpose, not derived: ErrorCodes is public (DESIGN §3) and a code never
    // changes name, number or meaning, so a change to this list is a breaking change.
    expect(ErrorCodes).toEqual({
      UnknownBinding: 91001,
      BindingUsedBeforeBound: 91002,
      StepNameUsedAsBinding: 91003,
      UndeclaredPromptArgument: 91004,
      UnboundUriVariable: 91005,
      UnusedTemplateBinding: 91006,
      UnknownGuidancePlaceholder: 91007,
      DuplicateBinding: 91008,
      DuplicateStepName: 91009,
      DuplicateWorkflowName: 91010,
      MisplacedDecorator: 91011,
      StepOutsideWorkflow: 91012,
      FieldNotInType: 91013,
      TypeMismatch: 91014,
      NotALiteral: 91015,
      UnregisteredTool: 91016,
      UnregisteredResource: 91017,
      InvalidStepAction: 91018,
      InvalidFieldPath: 91019,
      InvalidUriTemplate: 91020,
      InvalidStepOption: 91021,
      NotAWorkflow: 91022,
      EmptyWorkflow: 91030,
      DecoratorMode: 91031,
      UnknownToolArgument: 91032,
      ArgumentType: 91033,
      BindingType: 91034,
      DefinitionConflict: 91035,
      ChecksNotInBuild: 91036,
      NestedAsk: 91040,
      UnknownAskPlaceholder: 91041,
      InvalidAskOption: 91042,
      AskAnswerType: 91043,
      LockedShapeChanged: 91050,
      InvalidSkillName: 91051,
      WorkflowCycle: 91052,
      WorkflowToolNotExposed: 91053,
      SkillFaceUnavailable: 91054,
      PromptArgumentType: 91055,
      TaskFaceUnavailable: 91056,
      InvalidExposeOption: 91057,
      ParallelSiblingBinding: 91060,
      ItemOutsideForEach: 91061,
      ForEachOverNonArray: 91062,
      ItemPathNotInType: 91063,
      TransformTypeMismatch: 91064,
      WorkflowResourceVariable: 91065,
      InvalidPreviousVersion: 91070,
      InvalidLockFile: 91071,
    });
  });

  test('cover every code a rule of @mcpflow/core reports', () => {
    const covered = new Set(groups.flatMap(([, cases]) => cases.flatMap((each) => each.expected.map((error) => error.code))));
    // Reported elsewhere, each with its own tests: on types, on names it cannot read and on its
    // compiler options by the transformer; a build that would not run the checks by the editor
    // plugin and `mcpflow validate`; on two definition objects under one name, on a step calling a
    // workflow class that is no tool, and on a skill where the SDK line has none, by use().
    const elsewhere = new Set<number>([
      ErrorCodes.FieldNotInType,
      ErrorCodes.BindingType,
      ErrorCodes.ItemPathNotInType,
      ErrorCodes.TransformTypeMismatch,
      ErrorCodes.NotALiteral,
      ErrorCodes.DecoratorMode,
      ErrorCodes.ChecksNotInBuild,
      ErrorCodes.DefinitionConflict,
      ErrorCodes.WorkflowToolNotExposed,
      ErrorCodes.SkillFaceUnavailable,
      ErrorCodes.TaskFaceUnavailable,
      // A lock file that cannot be read: by the transformer and `mcpflow validate` (lock.test.ts).
      ErrorCodes.InvalidLockFile,
    ]);
    expect(Object.values(ErrorCodes).filter((code) => !elsewhere.has(code) && !covered.has(code))).toEqual([]);
  });

  test('every group accepts a model that breaks none of its rules', () => {
    for (const [, cases] of groups) expect(cases.some((each) => each.expected.length === 0)).toBe(true);
  });
});
