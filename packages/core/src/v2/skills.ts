import { SkillsExtension, skillEntry, type Skill } from '@modelcontextprotocol/server/ext/skills';
import type { McpServer } from '@modelcontextprotocol/server';
import { skillFiles, type SkillsSupport, type WorkflowSkill } from '../adapter-kit';

/** A skill's entry (digest, size, front matter) from its `SKILL.md`, under the default `skill://` base. */
const entryOf = (skill: WorkflowSkill): Promise<Skill> => skillEntry(skill.name, { 'SKILL.md': skill.markdown });

/** Skills on SDK 2.x: the SDK's own `SkillsExtension` (SEP-2640), one per server, serving the kit's skill files. */
export const skills: SkillsSupport<McpServer> = {
  attach(server, source) {
    new SkillsExtension({ source: skillFiles(source, entryOf) }).attach(server);
  },
};
