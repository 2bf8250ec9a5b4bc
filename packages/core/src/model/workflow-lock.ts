import { sealableLengths } from './shape-prefix';
import { workflowShapes } from './step-shape';
import type { WorkflowModel } from './workflow-model';

/** The file `mcpflow lock` writes at a project's root, and the transformer and `mcpflow validate` read. */
export const LOCK_FILE = 'mcpflow.lock.json';

/** The format of `mcpflow.lock.json`, raised whenever its shape changes. */
const LOCK_FORMAT = 1;

/** What the lock keeps of one workflow: the version a release served, whose paused runs a later one must resume. */
export interface LockedWorkflow {
  /** The `version` option, when the class gave one (for people: never compared). */
  readonly version?: string;
  /** Each step's shape (`stepShape`), in order. */
  readonly steps: readonly string[];
  /** The prefixes a state of that version can record (`sealableLengths`): where a run can wait. */
  readonly sealable: readonly number[];
}

/** `mcpflow.lock.json` read: the locked version of each workflow, by name. */
export type WorkflowLock = ReadonlyMap<string, LockedWorkflow>;

/** What the lock keeps of a workflow's model (see `LockedWorkflow`). */
export function lockedWorkflow(model: Pick<WorkflowModel, 'name' | 'steps' | 'expose' | 'version'>): LockedWorkflow {
  return {
    ...(model.version === undefined ? {} : { version: model.version }),
    steps: workflowShapes(model),
    sealable: sealableLengths(model),
  };
}

/**
 * The text of `mcpflow.lock.json` for these workflows: sorted by name, keys sorted, one step's shape
 * a line, so a change of the lock reads as a diff of the steps that changed.
 *
 * @example
 * ```ts
 * fs.writeFileSync(LOCK_FILE, lockText(models));
 * ```
 */
export function lockText(models: readonly Pick<WorkflowModel, 'name' | 'steps' | 'expose' | 'version'>[]): string {
  const entries = [...models]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((model) => {
      const { version, steps, sealable } = lockedWorkflow(model);
      const fields = [`      "sealable": ${JSON.stringify(sealable)}`];
      fields.push(
        steps.length ? `      "steps": [\n${steps.map((shape) => `        ${shape}`).join(',\n')}\n      ]` : `      "steps": []`,
      );
      if (version !== undefined) fields.push(`      "version": ${JSON.stringify(version)}`);
      return `    ${JSON.stringify(model.name)}: {\n${fields.join(',\n')}\n    }`;
    });
  return `{\n  "format": ${LOCK_FORMAT},\n  "workflows": {${entries.length ? `\n${entries.join(',\n')}\n  ` : ''}}\n}\n`;
}

/**
 * Reads the text of `mcpflow.lock.json`. Throws an `Error` saying what is wrong with a text that is
 * not a lock `mcpflow lock` wrote (not JSON, another format, a field of the wrong type).
 */
export function readLock(text: string): WorkflowLock {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not JSON (${(error as Error).message})`);
  }
  const root = parsed as { format?: unknown; workflows?: unknown } | null;
  if (typeof root !== 'object' || root === null || root.format !== LOCK_FORMAT)
    throw new Error(`it has no "format": ${LOCK_FORMAT} (written by another version of mcpflow, or by hand)`);
  if (typeof root.workflows !== 'object' || root.workflows === null || Array.isArray(root.workflows))
    throw new Error('its "workflows" is not an object');
  const lock = new Map<string, LockedWorkflow>();
  for (const [name, entry] of Object.entries(root.workflows as Record<string, unknown>)) {
    const { version, steps, sealable } = (entry ?? {}) as { version?: unknown; steps?: unknown; sealable?: unknown };
    if (!Array.isArray(steps) || !steps.every((step) => Array.isArray(step)))
      throw new Error(`workflow '${name}' has no "steps" list of step shapes`);
    if (!Array.isArray(sealable) || !sealable.every((length) => Number.isInteger(length) && length >= 0 && length <= steps.length))
      throw new Error(`workflow '${name}' has no "sealable" list of step counts`);
    if (version !== undefined && typeof version !== 'string') throw new Error(`workflow '${name}' has a "version" that is not a string`);
    lock.set(name, {
      ...(version === undefined ? {} : { version }),
      // A shape is written as the JSON array `stepShape` gives: its text again, as sealing digests it.
      steps: steps.map((step) => JSON.stringify(step)),
      sealable: sealable as number[],
    });
  }
  return lock;
}
