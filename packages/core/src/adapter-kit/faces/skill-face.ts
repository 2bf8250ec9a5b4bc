import { workflowFaces, type WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import type { AdapterLine } from '../adapter-line';
import { workflowSkill, type ServerSkills } from './skill-source';

/**
 * Throws when two workflows of the server would serve skills of one name. Checked for every class
 * of a `use()` before any is registered (all or nothing).
 */
export function checkSkillNames(skills: ServerSkills, models: readonly WorkflowModel[]): void {
  const names = new Set<string>();
  for (const model of models) {
    const name = workflowFaces(model).skill?.name;
    if (name === undefined) continue;
    if (names.has(name) || skills.has(name))
      throw new Error(
        `Skill ${name} is already served on this server; give workflow class ${model.className} a skill name of its own: expose: { skill: { name: '…' } }.`,
      );
    names.add(name);
  }
}

/**
 * Serves a workflow as a skill (DESIGN §2.10) through the line's own skills extension: the first
 * skill of a server attaches one extension to it (before it connects), whose source lists the
 * server's skills when a client asks; the `SKILL.md` is generated once per class and process.
 *
 * @example
 * ```ts
 * registerSkillFace(server, line, skills, GetHint, model);
 * ```
 */
export function registerSkillFace<Server>(
  server: Server,
  line: AdapterLine<Server, unknown>,
  skills: ServerSkills,
  target: WorkflowClass,
  model: WorkflowModel,
): void {
  if (!line.skills) throw new Error(`${line.entry} serves no skills; use() checks this first`);
  if (skills.size === 0) line.skills.attach(server, skills);
  skills.add(workflowSkill(target, model));
}
