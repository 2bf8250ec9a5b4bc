import type { WorkflowModel } from '../../model';
import { workflowFaces } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import { skillMarkdown } from './skill-markdown';
import { oneLine } from './skill-markup';

/** A workflow served as a skill: its SEP-2640 name, its description (on one line, as its front matter has it) and its generated `SKILL.md`. */
export interface WorkflowSkill {
  readonly name: string;
  readonly description: string;
  /** The `SKILL.md`, the same bytes in every process serving the class. */
  readonly markdown: string;
}

/** What a server serves as skills, read when a client asks (so `use()` stays synchronous and cheap). */
export interface WorkflowSkillSource {
  /** The server's workflow skills, sorted by name (whatever the order of `use()`). */
  skills(): readonly WorkflowSkill[];
}

const skills = new WeakMap<WorkflowClass, WorkflowSkill>();

/**
 * The skill of a workflow class, generated once per process (one object per class, so a line may
 * cache what it derives from it, such as the entry's digest).
 *
 * @example
 * ```ts
 * workflowSkill(GetHint, model).name; // 'get-hint'
 * ```
 */
export function workflowSkill(target: WorkflowClass, model: WorkflowModel): WorkflowSkill {
  let skill = skills.get(target);
  if (!skill) {
    const faces = workflowFaces(model);
    skill = Object.freeze({
      name: faces.skill!.name,
      description: oneLine(model.description ?? ''),
      markdown: skillMarkdown(model, faces, target),
    });
    skills.set(target, skill);
  }
  return skill;
}

/**
 * The skills of one server: what `use()` added, listed by name. Attached to the server (through
 * the line's skills extension) when the first skill is added.
 *
 * @example
 * ```ts
 * const source = new ServerSkills();
 * source.add(workflowSkill(GetHint, model));
 * source.skills(); // [{ name: 'get-hint', … }]
 * ```
 */
export class ServerSkills implements WorkflowSkillSource {
  private readonly added: WorkflowSkill[] = [];
  private sorted?: readonly WorkflowSkill[];

  /** How many skills were added. */
  get size(): number {
    return this.added.length;
  }

  add(skill: WorkflowSkill): void {
    this.added.push(skill);
    this.sorted = undefined;
  }

  /** True when a skill of this name is served already. */
  has(name: string): boolean {
    return this.added.some((skill) => skill.name === name);
  }

  skills(): readonly WorkflowSkill[] {
    // By code unit, never by locale: the listing is the same in every process.
    return (this.sorted ??= [...this.added].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
  }
}
