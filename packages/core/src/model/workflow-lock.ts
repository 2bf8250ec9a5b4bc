import { sealableLengths } from './shape-prefix';
import { workflowShapes } from './step-shape';
import type { WorkflowModel } from './workflow-model';

/** The file `mcpflow lock` writes at a project's root, and the transformer and `mcpflow validate` read. */
export const LOCK_FILE = 'mcpflow.lock.json';

/**
 * The format of `mcpflow.lock.json`, raised whenever its shape changes. 2 added each workflow's
 * `previous` classes and its `project`; a format-1 lock still reads (neither is checked for it).
 */
const LOCK_FORMAT = 2;
/** The formats `readLock` reads. */
const READ_FORMATS: readonly unknown[] = [1, LOCK_FORMAT];

/** The shapes of one version of a workflow: the version a release served, whose paused runs a later one must resume. */
export interface LockedShapes {
  /** The `version` option, when the class gave one (for people: never compared). */
  readonly version?: string;
  /** Each step's shape (`stepShape`), in order. */
  readonly steps: readonly string[];
  /** The prefixes a state of that version can record (`sealableLengths`): where a run can wait. */
  readonly sealable: readonly number[];
}

/** What the lock keeps of one workflow: its latest class's shapes, and those of each class it kept in `previous`. */
export interface LockedWorkflow extends LockedShapes {
  /** The classes of `previous` when it was locked: runs paused on them can still be out there (none in a format-1 lock). */
  readonly previous: readonly LockedShapes[];
  /**
   * The tsconfig.json whose program declares the workflow, relative to the lock's folder with `/`
   * (absent in a format-1 lock): that program reports the workflow when it is gone.
   */
  readonly project?: string;
}

/** `mcpflow.lock.json` read: the locked version of each workflow, by name. */
export type WorkflowLock = ReadonlyMap<string, LockedWorkflow>;

/** What `lockedWorkflow` reads of a workflow's model: its name, steps, faces, version and previous classes. */
export type LockedModel = Pick<WorkflowModel, 'name' | 'steps' | 'expose' | 'version' | 'previous'>;

function lockedShapes(model: Pick<WorkflowModel, 'name' | 'steps' | 'expose' | 'version'>): LockedShapes {
  return {
    ...(model.version === undefined ? {} : { version: model.version }),
    steps: workflowShapes(model),
    sealable: sealableLengths(model),
  };
}

/** What the lock keeps of a workflow's model, declared in `project` (see `LockedWorkflow`). */
export function lockedWorkflow(model: LockedModel, project?: string): LockedWorkflow {
  const previous = (model.previous ?? []).flatMap(({ model: kept }) => (kept?.name === model.name ? [lockedShapes(kept)] : []));
  return { ...lockedShapes(model), previous, ...(project === undefined ? {} : { project }) };
}

/** One version's fields, as `lockText` writes them at `indent`: sorted keys, one step's shape a line. */
function shapesText({ sealable, steps, version }: LockedShapes, indent: string): string[] {
  const fields = [`${indent}"sealable": ${JSON.stringify(sealable)}`];
  fields.push(
    steps.length ? `${indent}"steps": [\n${steps.map((shape) => `${indent}  ${shape}`).join(',\n')}\n${indent}]` : `${indent}"steps": []`,
  );
  if (version !== undefined) fields.push(`${indent}"version": ${JSON.stringify(version)}`);
  return fields;
}

/**
 * The text of `mcpflow.lock.json` for these workflows (each with the project that declares it): sorted
 * by name, keys sorted, one step's shape a line, so a change of the lock reads as a diff of the steps
 * that changed.
 *
 * @example
 * ```ts
 * fs.writeFileSync(LOCK_FILE, lockText(models.map((model) => ({ model, project: 'tsconfig.json' }))));
 * ```
 */
export function lockText(workflows: readonly { model: LockedModel; project?: string }[]): string {
  const entries = [...workflows]
    .sort((a, b) => (a.model.name < b.model.name ? -1 : a.model.name > b.model.name ? 1 : 0))
    .map(({ model, project }) => {
      const locked = lockedWorkflow(model, project);
      const fields = locked.previous.length
        ? [
            `      "previous": [\n${locked.previous.map((kept) => `        {\n${shapesText(kept, '          ').join(',\n')}\n        }`).join(',\n')}\n      ]`,
          ]
        : [];
      if (project !== undefined) fields.push(`      "project": ${JSON.stringify(project)}`);
      fields.push(...shapesText(locked, '      '));
      return `    ${JSON.stringify(model.name)}: {\n${fields.join(',\n')}\n    }`;
    });
  return `{\n  "format": ${LOCK_FORMAT},\n  "workflows": {${entries.length ? `\n${entries.join(',\n')}\n  ` : ''}}\n}\n`;
}

/** One version's fields read, or an `Error` naming what is wrong (`what`: the workflow, or its previous class). */
function readShapes(entry: unknown, what: string): LockedShapes {
  const { version, steps, sealable } = (entry ?? {}) as { version?: unknown; steps?: unknown; sealable?: unknown };
  if (!Array.isArray(steps) || !steps.every((step) => Array.isArray(step))) throw new Error(`${what} has no "steps" list of step shapes`);
  if (!Array.isArray(sealable) || !sealable.every((length) => Number.isInteger(length) && length >= 0 && length <= steps.length))
    throw new Error(`${what} has no "sealable" list of step counts`);
  if (version !== undefined && typeof version !== 'string') throw new Error(`${what} has a "version" that is not a string`);
  return {
    ...(version === undefined ? {} : { version }),
    // A shape is written as the JSON array `stepShape` gives: its text again, as sealing digests it.
    steps: steps.map((step) => JSON.stringify(step)),
    sealable: sealable as number[],
  };
}

/**
 * Reads the text of `mcpflow.lock.json` (format 2, or 1 as earlier releases wrote it). Throws an
 * `Error` saying what is wrong with a text that is not a lock `mcpflow lock` wrote (not JSON, another
 * format, a field of the wrong type).
 */
export function readLock(text: string): WorkflowLock {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not JSON (${(error as Error).message})`);
  }
  const root = parsed as { format?: unknown; workflows?: unknown } | null;
  if (typeof root !== 'object' || root === null || !READ_FORMATS.includes(root.format))
    throw new Error(
      `it has no "format": ${LOCK_FORMAT} (nor 1): it was written by another version of mcpflow (one newer than this one: upgrade), or by hand`,
    );
  if (typeof root.workflows !== 'object' || root.workflows === null || Array.isArray(root.workflows))
    throw new Error('its "workflows" is not an object');
  const lock = new Map<string, LockedWorkflow>();
  for (const [name, entry] of Object.entries(root.workflows as Record<string, unknown>)) {
    const { previous = [], project } = (entry ?? {}) as { previous?: unknown; project?: unknown };
    if (!Array.isArray(previous)) throw new Error(`workflow '${name}' has a "previous" that is not a list`);
    if (project !== undefined && typeof project !== 'string') throw new Error(`workflow '${name}' has a "project" that is not a string`);
    lock.set(name, {
      ...readShapes(entry, `workflow '${name}'`),
      previous: previous.map((kept, index) => readShapes(kept, `workflow '${name}', previous class ${index + 1},`)),
      ...(project === undefined ? {} : { project }),
    });
  }
  return lock;
}
