import type { UpdatableHandle } from './handles';

/**
 * The handles the SDK returned, by the name (or URI) they are served under. Wraps each handle's
 * `update` so a rename or `remove()` is followed here too; lookups happen at call time, so
 * `update`/`disable`/`remove` are honoured by workflow steps exactly as by clients.
 */
export class HandleMap<H extends UpdatableHandle> {
  private readonly byKey = new Map<string, H>();
  /** Counts every handle tracked or updated here: what was read from the handles before is stale once it moves. */
  revision = 0;

  constructor(private readonly keyField: 'name' | 'uri') {}

  /** Starts following a handle registered under `key`; `onUpdate` may rewrite updates first. */
  track(key: string, handle: H, onUpdate?: (updates: Record<string, unknown>) => Record<string, unknown>): H {
    this.byKey.set(key, handle);
    this.revision += 1;
    let current: string | undefined = key;
    const update = handle.update.bind(handle);
    handle.update = (updates: Record<string, unknown>) => {
      update(onUpdate ? onUpdate(updates) : updates);
      this.revision += 1;
      const next = updates[this.keyField];
      if (next === undefined || next === current) return;
      if (current !== undefined && this.byKey.get(current) === handle) this.byKey.delete(current);
      current = typeof next === 'string' && next ? next : undefined;
      if (current !== undefined) this.byKey.set(current, handle);
    };
    return handle;
  }

  get(key: string): H | undefined {
    return this.byKey.get(key);
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  entries(): IterableIterator<[string, H]> {
    return this.byKey.entries();
  }
}
