/**
 * Where in a workflow declaration an error sits, so the compiler can point at the offending literal.
 * Offsets (`start`/`end`) are into the string literal's text.
 */
export type IssueTarget =
  | { readonly kind: 'workflowName' }
  | { readonly kind: 'argumentName'; readonly argument: string }
  | { readonly kind: 'stepName'; readonly step: string }
  | { readonly kind: 'stepAction'; readonly step: string }
  | { readonly kind: 'stepOption'; readonly step: string; readonly option: string }
  | { readonly kind: 'argSource'; readonly step: string; readonly arg: string; readonly part: SourcePart; readonly within?: string }
  | {
      readonly kind: 'templateSource';
      readonly step: string;
      readonly variable: string;
      readonly part: SourcePart;
      readonly within?: string;
    }
  | { readonly kind: 'templateVariable'; readonly step: string; readonly variable: string }
  | { readonly kind: 'binding'; readonly step: string; readonly binding: string }
  | { readonly kind: 'stepUri'; readonly step: string; readonly start: number; readonly end: number }
  | { readonly kind: 'embeddedUri'; readonly step: string; readonly index: number; readonly start: number; readonly end: number }
  | { readonly kind: 'guidance'; readonly step: string; readonly start: number; readonly end: number }
  | { readonly kind: 'strayDecorator'; readonly property: string; readonly decorator: string }
  /** The `index`-th data source of a step's `when`, depth first (see `conditionSources`). */
  | { readonly kind: 'conditionSource'; readonly step: string; readonly index: number; readonly part: SourcePart; readonly within?: string }
  | { readonly kind: 'forEachSource'; readonly step: string; readonly part: SourcePart; readonly within?: string }
  | { readonly kind: 'workflowResource'; readonly index: number; readonly start: number; readonly end: number }
  /** A step's `transform` function. */
  | { readonly kind: 'transform'; readonly step: string }
  /** An option of `@Workflow({ expose })`: `option` is its path (`tool`, `tool.name`, `skill.name`), `''` for `expose` itself. */
  | { readonly kind: 'exposeOption'; readonly option: string };

/** Where an error about a data source points: a step argument's, a URI variable's, a condition's or a `forEach` source. */
export type SourceIssueTarget = Extract<IssueTarget, { kind: 'argSource' | 'templateSource' | 'conditionSource' | 'forEachSource' }>;

/**
 * Which literal of a data source call an error is about: `fromStep('x')` → binding, `field(_, 'a.b')` →
 * path, `askUser('…')` → message, an ask's option → options (with `within` naming the option).
 * `within` also names the ask option that holds a nested source: `choices`, `context.<name>`. `key` is
 * not in the call: it is the `args` key the source is mapped to.
 */
export type SourcePart = 'name' | 'binding' | 'path' | 'value' | 'message' | 'options' | 'key';

/** Stable codes, shared by run-time errors and compiler diagnostics. Documented in the README. */
export const ErrorCodes = {
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
  /** A warning of the editor and `mcpflow validate`, never a build error: the project's build does not run the transformer. */
  ChecksNotInBuild: 91036,
  NestedAsk: 91040,
  UnknownAskPlaceholder: 91041,
  InvalidAskOption: 91042,
  AskAnswerType: 91043,
  // Faces (expose: prompt, tool, skill) and workflows that call workflows; 91050 is the lock check's (DESIGN §2.16).
  /** A change that would refuse runs paused on the version `mcpflow.lock.json` records (DESIGN §2.16): the transformer and `mcpflow validate`. */
  LockedShapeChanged: 91050,
  InvalidSkillName: 91051,
  WorkflowCycle: 91052,
  WorkflowToolNotExposed: 91053,
  SkillFaceUnavailable: 91054,
  PromptArgumentType: 91055,
  TaskFaceUnavailable: 91056,
  /** 91050 until issue 41, which gave 91050 to `LockedShapeChanged` as DESIGN §2.16 assigns it. */
  InvalidExposeOption: 91057,
  // Flow (parallel, when, forEach, transform, instruction resources): from the high end of the range.
  ParallelSiblingBinding: 91060,
  ItemOutsideForEach: 91061,
  ForEachOverNonArray: 91062,
  ItemPathNotInType: 91063,
  TransformTypeMismatch: 91064,
  WorkflowResourceVariable: 91065,
  // Versions (DESIGN §2.16).
  InvalidPreviousVersion: 91070,
  /** `mcpflow.lock.json` is there but is not a lock `mcpflow lock` wrote. */
  InvalidLockFile: 91071,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export interface WorkflowErrorDetails {
  readonly workflow: string;
  readonly step?: string;
  readonly target: IssueTarget;
  /** What is wrong, in one sentence. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;
  /** Replaces the `Workflow '…', step '…'` opening where the error is not inside a known workflow. */
  readonly where?: string;
}

/**
 * Base of every error in a workflow's declaration. The message names the workflow, the step and
 * the fix; `code` is stable and the compiler reports it as `TS<code>`.
 */
export abstract class WorkflowDefinitionError extends Error {
  abstract readonly code: ErrorCode;
  readonly workflow: string;
  readonly step?: string;
  readonly target: IssueTarget;
  readonly problem: string;
  readonly fix: string;

  protected constructor(details: WorkflowErrorDetails) {
    const where =
      details.where ??
      (details.step === undefined ? `Workflow '${details.workflow}'` : `Workflow '${details.workflow}', step '${details.step}'`);
    super(`${where}: ${details.problem} Fix: ${details.fix}`);
    this.name = new.target.name;
    this.workflow = details.workflow;
    this.step = details.step;
    this.target = details.target;
    this.problem = details.problem;
    this.fix = details.fix;
  }
}
