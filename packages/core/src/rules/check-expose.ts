import {
  MAX_SKILL_DESCRIPTION_CHARACTERS,
  MAX_SKILL_NAME_CHARACTERS,
  SKILL_NAME_PATTERN,
  TOOL_NAME_PATTERN,
  skillName,
  type WorkflowModel,
} from '../model';
import { didYouMean, listNames } from './closest-name';
import { InvalidExposeOptionError, InvalidSkillNameError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** The options each part of `expose` takes. */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  '': ['prompt', 'tool', 'skill'],
  tool: ['name', 'title', 'task'],
  skill: ['name'],
};

/**
 * `@Workflow({ expose })` is one the server can serve: each option of the type it takes (it may
 * come from untyped code), a tool name MCP allows, at least one face; and, for a skill, a
 * SEP-2640 name (`get_hint` → `get-hint`: 1–64 lowercase letters and digits, in words joined by
 * single hyphens) and a description of 1–1,024 characters.
 *
 * @example
 * ```ts
 * checkExpose({ ...model, expose: { prompt: false } }); // [InvalidExposeOptionError: … serves the workflow under no face …]
 * ```
 */
export function checkExpose(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const { expose } = workflow;
  if (expose === undefined) return [];
  const errors: WorkflowDefinitionError[] = [];
  const invalid = (option: string, problem: string, fix: string) =>
    errors.push(new InvalidExposeOptionError(workflow.name, option, problem, fix));
  if (!isRecord(expose)) {
    invalid(
      '',
      `is ${describe(expose)}; it must be an object such as { tool: true }.`,
      `write expose: { prompt?, tool?, skill? }, or remove it.`,
    );
    return errors;
  }
  unknownOptions(expose, '', invalid);
  if (expose.prompt !== undefined && typeof expose.prompt !== 'boolean')
    invalid(
      'prompt',
      `is ${describe(expose.prompt)}; it must be true or false.`,
      `write prompt: false to serve the workflow without its prompt, or remove it.`,
    );
  for (const face of ['tool', 'skill'] as const) {
    const value: unknown = expose[face];
    if (value === undefined || typeof value === 'boolean') continue;
    if (!isRecord(value)) {
      const shape = face === 'tool' ? '{ name?, title?, task? }' : '{ name? }';
      invalid(face, `is ${describe(value)}; it must be true, false or ${shape}.`, `write ${face}: true, or ${face}: ${shape}.`);
      continue;
    }
    unknownOptions(value, face, invalid);
    for (const option of OPTIONS[face]) {
      const text: unknown = value[option];
      if (option === 'task') {
        if (text !== undefined && text !== 'optional' && text !== 'required')
          invalid(
            'tool.task',
            `is ${describe(text)}; it must be 'optional' or 'required'.`,
            `write task: 'optional' (or 'required'), or remove it.`,
          );
        continue;
      }
      if (text !== undefined && typeof text !== 'string')
        invalid(`${face}.${option}`, `is ${describe(text)}; it must be a string.`, `write ${option} as a string literal, or remove it.`);
    }
  }
  if (expose.prompt === false && !expose.tool && !expose.skill)
    invalid(
      'prompt',
      `is false and the workflow is neither a tool nor a skill, so it would be served under no face.`,
      `add tool: true (or skill: true), or remove prompt: false.`,
    );
  if (errors.length) return errors;
  checkToolName(workflow, invalid);
  return [...errors, ...checkSkill(workflow)];
}

/** The tool name (`expose.tool.name`, else the workflow's name) is one MCP allows. */
function checkToolName(workflow: WorkflowModel, invalid: (option: string, problem: string, fix: string) => void): void {
  const tool = workflow.expose?.tool;
  if (!tool) return;
  const named = typeof tool === 'object' && tool.name !== undefined;
  const name = named ? tool.name! : workflow.name;
  if (TOOL_NAME_PATTERN.test(name)) return;
  invalid(
    named ? 'tool.name' : 'tool',
    `gives the tool name '${name}'${named ? '' : " (the workflow's name)"}, which is not a tool name: 1–128 letters, digits, '_', '-' or '.'.`,
    named ? `choose a tool name of letters, digits, '_', '-' and '.'.` : `give the tool a name of its own: tool: { name: '…' }.`,
  );
}

/** A workflow served as a skill has a SEP-2640 name and a description of 1–1,024 characters. */
function checkSkill(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const skill = workflow.expose?.skill;
  if (!skill) return [];
  const errors: WorkflowDefinitionError[] = [];
  const named = typeof skill === 'object' && skill.name !== undefined;
  const given = named ? skill.name! : workflow.name;
  const name = skillName(given);
  if (name.length > MAX_SKILL_NAME_CHARACTERS || !SKILL_NAME_PATTERN.test(name)) {
    errors.push(
      new InvalidSkillNameError(
        workflow.name,
        named ? 'skill.name' : 'skill',
        `'${given}'${named ? '' : " (the workflow's name)"} becomes the skill name '${name}', which is not 1–${MAX_SKILL_NAME_CHARACTERS} lowercase letters and digits in words joined by single hyphens (SEP-2640).`,
        named
          ? `choose a skill name such as 'get-hint' (letters and digits; '_' and spaces become '-').`
          : `give the skill a name of its own: skill: { name: 'get-hint' }.`,
      ),
    );
  }
  const description = workflow.description;
  const characters = description === undefined ? 0 : [...description].length;
  if (characters === 0 || characters > MAX_SKILL_DESCRIPTION_CHARACTERS) {
    errors.push(
      new InvalidSkillNameError(
        workflow.name,
        '',
        characters === 0
          ? `the workflow needs a description: a skill's description says when to use it (SEP-2640).`
          : `its description has ${characters} characters; a skill's description has at most ${MAX_SKILL_DESCRIPTION_CHARACTERS}.`,
        characters === 0
          ? `add description: '…' to the @Workflow options.`
          : `shorten the workflow's description to ${MAX_SKILL_DESCRIPTION_CHARACTERS} characters or fewer.`,
      ),
    );
  }
  return errors;
}

function unknownOptions(value: Record<string, unknown>, at: string, invalid: (option: string, problem: string, fix: string) => void): void {
  const known = OPTIONS[at];
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const option = at ? `${at}.${key}` : key;
    invalid(
      option,
      `is not an option: ${at ? `expose.${at}` : 'expose'} takes ${listNames(known)}.${didYouMean(key, known)}`,
      `remove it.`,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'an array' : typeof value;
}
