import type { WorkflowSkill, WorkflowSkillSource } from './skill-source';

/**
 * The skills of a server as a skills extension serves them (SEP-2640): each skill's entry, its
 * `SKILL.md` found by URI. `Entry` is the line's own (its digest, size and front matter).
 */
export interface SkillFiles<Entry> {
  list(): Promise<{ skills: Entry[] }>;
  get(uri: string): Promise<Entry | undefined>;
  read(uri: string): Promise<{ text: string; mimeType: string } | undefined>;
}

/** The `SKILL.md` URI of a skill, under SEP-2640's default `skill://` base. */
function skillUri(skill: WorkflowSkill): string {
  return `skill://${skill.name}/SKILL.md`;
}

/** Each builder's entries, by skill: a line passes one builder for all its servers, so an entry is built once per process. */
const entriesByBuilder = new WeakMap<object, WeakMap<WorkflowSkill, Promise<unknown>>>();

/**
 * What `source` holds, computed when a client asks. Each skill's entry is built by `build` once
 * per process (a skill is one object per workflow class) and shared by every server serving it.
 *
 * @example
 * ```ts
 * const files = skillFiles(source, (skill) => skillEntry(skill.name, { 'SKILL.md': skill.markdown }));
 * await files.read('skill://get-hint/SKILL.md'); // { text: '---\nname: get-hint…', mimeType: 'text/markdown' }
 * ```
 */
export function skillFiles<Entry>(source: WorkflowSkillSource, build: (skill: WorkflowSkill) => Promise<Entry>): SkillFiles<Entry> {
  let entries = entriesByBuilder.get(build);
  if (!entries) entriesByBuilder.set(build, (entries = new WeakMap()));
  const built = entries;
  const entryOf = (skill: WorkflowSkill): Promise<Entry> => {
    let entry = built.get(skill) as Promise<Entry> | undefined;
    if (!entry) built.set(skill, (entry = build(skill)));
    return entry;
  };
  const find = (uri: string) => source.skills().find((skill) => skillUri(skill) === uri);
  return {
    list: async () => ({ skills: await Promise.all(source.skills().map(entryOf)) }),
    get: async (uri) => {
      const skill = find(uri);
      return skill && entryOf(skill);
    },
    read: async (uri) => {
      const skill = find(uri);
      return skill && { text: skill.markdown, mimeType: 'text/markdown' };
    },
  };
}
