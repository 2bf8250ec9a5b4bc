import { randomBytes } from 'node:crypto';
import { referenceArguments, restoreArguments, type StateSealer } from '../../engine';
import type { SealedTaskValue } from './task-store';

/** How a task's round ended, as the task keeps it: the tool's result, or a JSON-RPC error. */
export type TaskEnd = { readonly result: unknown } | { readonly error: unknown };

/** Random bytes in a task id: 192 bits, base64url (32 characters). */
const TASK_ID_BYTES = 24;

/** A new task id: unguessable (more than the 128 random bits DESIGN §2.13 asks for). */
export function newTaskId(): string {
  return randomBytes(TASK_ID_BYTES).toString('base64url');
}

/**
 * Seals and opens the values of one task (`pause.keys`, AES-256-GCM), each bound to the task id:
 * a value of one task never opens as another's.
 *
 * @example
 * ```ts
 * const values = new TaskValues(sealer, taskId);
 * const sealed = values.seal({ arguments: args });
 * values.open(sealed); // { arguments: args }
 * ```
 */
export class TaskValues {
  constructor(
    private readonly sealer: StateSealer,
    private readonly taskId: string,
  ) {}

  seal(value: unknown): SealedTaskValue {
    const sealed = this.sealer.seal(value, this.binding());
    if (!sealed.ok) throw new Error(`mcpflow tasks: a value of task '${this.taskId}' cannot be stored: ${sealed.reason}`);
    return sealed.state;
  }

  open<T>(sealed: SealedTaskValue): T {
    return this.sealer.open(sealed, this.binding()) as T;
  }

  openOptional<T>(sealed: SealedTaskValue | undefined): T | undefined {
    return sealed === undefined ? undefined : this.open<T>(sealed);
  }

  /**
   * Seals how a round ended (`{ result }` or `{ error }`), a result's large arguments referenced
   * (`referenceArguments`) where it echoes them: they are stored once, with the task's call.
   */
  sealEnd(end: TaskEnd, args: Readonly<Record<string, unknown>>): SealedTaskValue {
    if (!('result' in end)) return this.seal(end);
    const { value, referenced } = referenceArguments(end.result, args);
    return this.seal(referenced ? { result: value, arguments: 1 } : end);
  }

  /** Opens what `sealEnd` sealed; `call` reads the task's sealed call when the result refers to its arguments. */
  async openEnd(sealed: SealedTaskValue, call: () => Promise<SealedTaskValue | undefined>): Promise<TaskEnd> {
    const { arguments: referenced, ...end } = this.open<TaskEnd & { arguments?: 1 }>(sealed);
    if (referenced !== 1 || !('result' in end)) return end;
    const sealedCall = await call();
    if (sealedCall === undefined) throw new Error(`mcpflow tasks: task '${this.taskId}' is gone`);
    return { result: restoreArguments(end.result, this.open<{ arguments: Record<string, unknown> }>(sealedCall).arguments) };
  }

  private binding() {
    return { prompt: `task ${this.taskId}`, face: 'tool' as const, arguments: {} };
  }
}
