/**
 * The `expose` option of `@Workflow`: the faces a workflow is served under (DESIGN §2.10). A
 * prompt by default; also a tool (`tools/list`, `tools/call`) and a skill (SEP-2640, SDK 2.x).
 *
 * @example
 * ```ts
 * @Workflow({ name: 'get_hint', description: 'Get a hint', expose: { tool: true, skill: { name: 'hints' } } })
 * ```
 */
export interface ExposeOptions {
  /** Served as a prompt (`prompts/list`, `prompts/get`). Default `true`. */
  prompt?: boolean;
  /**
   * Served as a tool: `true`, or the tool's own `name` and `title` (default: the workflow's), and
   * `task`: whether a `tools/call` may run as an MCP task (SDK 2.x, DESIGN §2.13) — `'optional'`
   * (a task for clients that declare the tasks extension, a plain call for the others) or
   * `'required'` (clients without the extension get error -32021). Default `false`; no task.
   */
  tool?: boolean | { name?: string; title?: string; task?: TaskSupport };
  /** Served as a skill whose `SKILL.md` is generated from the class (SDK 2.x only): `true`, or the skill's `name`. Default `false`. */
  skill?: boolean | { name?: string };
}

/** Whether a tool runs as an MCP task (the tasks extension, SEP-2663): for clients that declare the extension, or only for them. */
export type TaskSupport = 'optional' | 'required';

/** The faces a workflow is served under, defaults applied: what `expose` means once it is valid. */
export interface WorkflowFaces {
  readonly prompt: boolean;
  /** The tool's name and title (and whether it runs as a task), when the workflow is a tool. */
  readonly tool?: { readonly name: string; readonly title?: string; readonly task?: TaskSupport };
  /** The skill's name in SEP-2640 form, when the workflow is a skill. */
  readonly skill?: { readonly name: string };
}

/**
 * What `expose` says, with the defaults: a prompt unless `prompt: false`; a tool named after the
 * workflow (or `expose.tool.name`); a skill named after the workflow in SEP-2640 form (or after
 * `expose.skill.name`). Reads a valid `expose` (the rules check it first).
 *
 * @example
 * ```ts
 * workflowFaces({ name: 'get_hint', expose: { tool: true, skill: true } });
 * // { prompt: true, tool: { name: 'get_hint' }, skill: { name: 'get-hint' } }
 * ```
 */
export function workflowFaces(model: { readonly name: string; readonly title?: string; readonly expose?: ExposeOptions }): WorkflowFaces {
  const { prompt, tool, skill } = model.expose ?? {};
  const toolOptions = typeof tool === 'object' && tool !== null ? tool : {};
  const skillOptions = typeof skill === 'object' && skill !== null ? skill : {};
  return {
    prompt: prompt !== false,
    ...(tool === undefined || tool === false
      ? {}
      : {
          tool: {
            name: toolOptions.name ?? model.name,
            ...optional('title', toolOptions.title ?? model.title),
            ...optional('task', toolOptions.task),
          },
        }),
    ...(skill === undefined || skill === false ? {} : { skill: { name: skillName(skillOptions.name ?? model.name) } }),
  };
}

/**
 * A name in SEP-2640 skill form: lowercase, `_` and spaces become `-`. The result still has to be
 * a valid skill name (see `SKILL_NAME_PATTERN`); the rules say when it is not.
 *
 * @example
 * ```ts
 * skillName('get_hint'); // 'get-hint'
 * ```
 */
export function skillName(name: string): string {
  return name.toLowerCase().replace(/[_ ]/g, '-');
}

/** A SEP-2640 skill name: 1–64 characters of lowercase letters and digits, in words joined by single hyphens. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest skill name (SEP-2640). */
export const MAX_SKILL_NAME_CHARACTERS = 64;

/** The longest skill description (SEP-2640), in characters. */
export const MAX_SKILL_DESCRIPTION_CHARACTERS = 1024;

/** An MCP tool name: 1–128 letters, digits, `_`, `-` and `.`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return (value === undefined ? {} : { [key]: value }) as { [K in Key]?: Value };
}
