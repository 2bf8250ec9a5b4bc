import {
  ArgumentTypeError,
  ErrorCodes,
  InvalidExposeOptionError,
  UnknownToolArgumentError,
  checkWorkflowCallArguments,
  InvalidSkillNameError,
  PromptArgumentTypeError,
  checkPromptArguments,
  WorkflowCycleError,
  checkWorkflowCycles,
  validateWorkflow,
} from '@mcpflow/core/rules';
import type { ExposeOptions, WorkflowModel } from '@mcpflow/core/model';
import { args, callTool, constant, promptArg, toolStep, workflow, type RuleCase } from '../plain-model';

const exposed = (expose: unknown, extra: Partial<WorkflowModel> = {}) =>
  validateWorkflow(workflow([toolStep('fetch')], { description: 'Report on a project', expose: expose as ExposeOptions, ...extra }));

const exposeError = (option: string, message: string) => ({
  type: InvalidExposeOptionError,
  code: ErrorCodes.InvalidExposeOption,
  target: { kind: 'exposeOption', option } as const,
  message: `Workflow 'report': ${message}`,
});

/** A workflow served as the tool `name` whose steps call the tools `calls`, in order. */
const caller = (name: string, calls: string[]) =>
  workflow(
    calls.map((tool, index) => toolStep(`call_${index}`, { action: callTool(tool), args: args({ project: promptArg('project') }) })),
    { name, className: name, expose: { tool: true } },
  );

/** Faces (`expose`): its options, the skill name and description, and workflows calling each other in a ring. */
export const faceCases: RuleCase[] = [
  {
    label: 'a prompt, a tool under its own name and title, and a skill: every face at once',
    errors: () => exposed({ prompt: true, tool: { name: 'report.v2', title: 'Report' }, skill: { name: 'Project Report' } }),
    expected: [],
  },
  {
    label: 'expose that is not an object, and options of the wrong type',
    errors: () => [...exposed(true), ...exposed({ prompt: 'no', tool: 'yes', skill: { name: 7 } })],
    expected: [
      exposeError(
        '',
        'expose is true; it must be an object such as { tool: true }. Fix: write expose: { prompt?, tool?, skill? }, or remove it.',
      ),
      exposeError(
        'prompt',
        `expose.prompt is "no"; it must be true or false. Fix: write prompt: false to serve the workflow without its prompt, or remove it.`,
      ),
      exposeError(
        'tool',
        `expose.tool is "yes"; it must be true, false or { name?, title?, task? }. Fix: write tool: true, or tool: { name?, title?, task? }.`,
      ),
      exposeError('skill.name', 'expose.skill.name is 7; it must be a string. Fix: write name as a string literal, or remove it.'),
    ],
  },
  {
    label: 'an option expose does not take, with a suggestion',
    errors: () => exposed({ tools: true, tool: { name: 'report', titel: 'x' } }),
    expected: [
      exposeError('tools', "expose.tools is not an option: expose takes 'prompt', 'tool', 'skill'. Did you mean 'tool'? Fix: remove it."),
      exposeError(
        'tool.titel',
        "expose.tool.titel is not an option: expose.tool takes 'name', 'title', 'task'. Did you mean 'title'? Fix: remove it.",
      ),
    ],
  },
  {
    label: 'a tool run as a task: optional or required, nothing else',
    errors: () => [
      ...exposed({ tool: { task: 'required' } }),
      ...exposed({ tool: { task: 'sometimes' } }),
      ...exposed({ tool: { task: true } }),
    ],
    expected: [
      exposeError(
        'tool.task',
        `expose.tool.task is "sometimes"; it must be 'optional' or 'required'. Fix: write task: 'optional' (or 'required'), or remove it.`,
      ),
      exposeError(
        'tool.task',
        `expose.tool.task is true; it must be 'optional' or 'required'. Fix: write task: 'optional' (or 'required'), or remove it.`,
      ),
    ],
  },
  {
    label: 'prompt: false and no other face: the workflow would be served under no name',
    errors: () => exposed({ prompt: false, tool: false }),
    expected: [
      exposeError(
        'prompt',
        'expose.prompt is false and the workflow is neither a tool nor a skill, so it would be served under no face. Fix: add tool: true (or skill: true), or remove prompt: false.',
      ),
    ],
  },
  {
    label: 'a tool name MCP does not allow: given, and the workflow name by default',
    errors: () => [...exposed({ tool: { name: 'get hint' } }), ...exposed({ tool: true }, { name: 'project report' })],
    expected: [
      exposeError(
        'tool.name',
        "expose.tool.name gives the tool name 'get hint', which is not a tool name: 1–128 letters, digits, '_', '-' or '.'. Fix: choose a tool name of letters, digits, '_', '-' and '.'.",
      ),
      {
        ...exposeError('tool', ''),
        message:
          "Workflow 'project report': expose.tool gives the tool name 'project report' (the workflow's name), which is not a tool name: 1–128 letters, digits, '_', '-' or '.'. Fix: give the tool a name of its own: tool: { name: '…' }.",
      },
    ],
  },
  {
    label: 'a skill name that is not SEP-2640 even in lowercase with hyphens, and a skill with no description',
    errors: () => [...exposed({ skill: { name: 'report--v2!' } }), ...exposed({ skill: true }, { description: undefined })],
    expected: [
      {
        type: InvalidSkillNameError,
        code: ErrorCodes.InvalidSkillName,
        target: { kind: 'exposeOption', option: 'skill.name' },
        message:
          "Workflow 'report': as a skill, 'report--v2!' becomes the skill name 'report--v2!', which is not 1–64 lowercase letters and digits in words joined by single hyphens (SEP-2640). Fix: choose a skill name such as 'get-hint' (letters and digits; '_' and spaces become '-').",
      },
      {
        type: InvalidSkillNameError,
        code: ErrorCodes.InvalidSkillName,
        target: { kind: 'workflowName' },
        message:
          "Workflow 'report': as a skill, the workflow needs a description: a skill's description says when to use it (SEP-2640). Fix: add description: '…' to the @Workflow options.",
      },
    ],
  },
  {
    label: 'a skill whose name (the workflow name) is too long, and whose description is over 1,024 characters',
    errors: () => exposed({ skill: true }, { name: `r${'_eport'.repeat(11)}`, description: 'é'.repeat(1025) }),
    expected: [
      {
        type: InvalidSkillNameError,
        code: ErrorCodes.InvalidSkillName,
        target: { kind: 'exposeOption', option: 'skill' },
        message: `Workflow 'r${'_eport'.repeat(11)}': as a skill, 'r${'_eport'.repeat(11)}' (the workflow's name) becomes the skill name 'r${'-eport'.repeat(11)}', which is not 1–64 lowercase letters and digits in words joined by single hyphens (SEP-2640). Fix: give the skill a name of its own: skill: { name: 'get-hint' }.`,
      },
      {
        type: InvalidSkillNameError,
        code: ErrorCodes.InvalidSkillName,
        target: { kind: 'workflowName' },
        message: `Workflow 'r${'_eport'.repeat(11)}': as a skill, its description has 1025 characters; a skill's description has at most 1024. Fix: shorten the workflow's description to 1024 characters or fewer.`,
      },
    ],
  },
  {
    label: 'workflow tools calling each other in a ring, and one calling itself; a chain is fine',
    errors: () =>
      checkWorkflowCycles([
        caller('a', ['lookup', 'b']),
        caller('b', ['c']),
        caller('c', ['a']),
        caller('self', ['self']),
        caller('chain', ['a_tool_not_a_workflow', 'leaf']),
        caller('leaf', ['lookup']),
      ]),
    expected: [
      {
        type: WorkflowCycleError,
        code: ErrorCodes.WorkflowCycle,
        target: { kind: 'stepAction', step: 'call_1' },
        message:
          "Workflow 'a', step 'call_1': calls workflow tool 'b', which leads back to this workflow: 'a' → 'b' → 'c' → 'a'. A workflow cannot call itself, directly or through others. Fix: remove one call of the cycle, or move the shared steps into a workflow that calls none of these.",
      },
      {
        type: WorkflowCycleError,
        code: ErrorCodes.WorkflowCycle,
        target: { kind: 'stepAction', step: 'call_0' },
        message:
          "Workflow 'self', step 'call_0': calls workflow tool 'self', which leads back to this workflow: 'self' → 'self'. A workflow cannot call itself, directly or through others. Fix: remove one call of the cycle, or move the shared steps into a workflow that calls none of these.",
      },
    ],
  },
  {
    label: 'a prompt argument whose schema takes no string; none for a workflow served only as a tool',
    errors: () => {
      const takesNoString = (argument: string) => argument !== 'quantity';
      const declared = { arguments: [{ name: 'item' }, { name: 'quantity' }] };
      return checkPromptArguments(workflow([toolStep('fetch')], declared), takesNoString).concat(
        checkPromptArguments(workflow([toolStep('fetch')], { ...declared, expose: { prompt: false, tool: true } }), takesNoString),
      );
    },
    expected: [
      {
        type: PromptArgumentTypeError,
        code: ErrorCodes.PromptArgumentType,
        target: { kind: 'argumentName', argument: 'quantity' },
        message:
          "Workflow 'report': argument 'quantity' takes no string, but the workflow is served as a prompt, whose arguments are strings: every prompts/get would be refused. " +
          "Fix: declare 'quantity' as a string (z.string(), or z.coerce.number() to convert it), or serve the workflow only as a tool (expose: { prompt: false, tool: true }), whose arguments may have any schema.",
      },
    ],
  },
];

/** A step calling a workflow by its class: the arguments it maps, against what the called workflow declares. */
export const workflowCallCases: RuleCase[] = [
  {
    label: 'a workflow call mapping declared arguments, from a prompt argument and a string constant',
    errors: () =>
      checkWorkflowCallArguments(
        workflow([
          toolStep('hint', { action: callTool('get_hint'), args: args({ player: promptArg('project'), level: constant('low') }) }),
        ]),
        () => ({ arguments: [{ name: 'player' }, { name: 'level' }] }),
      ),
    expected: [],
  },
  {
    label: 'a workflow call mapping an argument the workflow does not declare, and a constant that is not a string',
    errors: () =>
      checkWorkflowCallArguments(
        workflow([toolStep('hint', { action: callTool('get_hint'), args: args({ playr: promptArg('project'), level: constant(3) }) })]),
        (tool) => (tool === 'get_hint' ? { arguments: [{ name: 'player' }, { name: 'level' }] } : undefined),
      ),
    expected: [
      {
        type: UnknownToolArgumentError,
        code: ErrorCodes.UnknownToolArgument,
        target: { kind: 'argSource', step: 'hint', arg: 'playr', part: 'key' },
        message:
          "Workflow 'report', step 'hint': maps argument 'playr', but tool get_hint has no such input. Its inputs: 'player', 'level'. Did you mean 'player'? Fix: rename the key in args to one of the tool's inputs, or remove it.",
      },
      {
        type: ArgumentTypeError,
        code: ErrorCodes.ArgumentType,
        target: { kind: 'argSource', step: 'hint', arg: 'level', part: 'value' },
        message:
          "Workflow 'report', step 'hint': argument 'level' of tool get_hint rejects the constant 3: workflow arguments are strings. Fix: give a constant the input schema accepts.",
      },
    ],
  },
];
