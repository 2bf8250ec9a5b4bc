import { SkillsExtension, skillEntry, type Skill, type SkillSource } from '@modelcontextprotocol/server/ext/skills';
import type { McpServer } from '@modelcontextprotocol/server';
import type { SkillsSupport, WorkflowSkill, WorkflowSkillSource } from '../adapter-kit';

/** Each skill's entry (digest, size, front matter), built once per process from its `SKILL.md`. */
const entries = new WeakMap<WorkflowSkill, Promise<Skill>>();

function entryOf(skill: WorkflowSkill): Promise<Skill> {
  let entry = entries.get(skill);
  if (!entry) {
    entry = skillEntry(skill.name, { 'SKILL.md': skill.markdown });
    entries.set(skill, entry);
  }
  return entry;
}

/** The `SKILL.md` URI of a skill, as `skillEntry` builds it under the default `skill://` base. */
function skillUri(skill: WorkflowSkill): string {
  return `skill://${skill.name}/SKILL.md`;
}

/** The SDK's `SkillSource` over the kit's: entries and files computed when a client asks. */
function workflowSkillSource(source: WorkflowSkillSource): SkillSource {
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

/** Skills on SDK 2.x: the SDK's own `SkillsExtension` (SEP-2640), one per server. */
export const skills: SkillsSupport<McpServer> = {
  attach(server, source) {
    new SkillsExtension({ source: workflowSkillSource(source) }).attach(server);
  },
};
