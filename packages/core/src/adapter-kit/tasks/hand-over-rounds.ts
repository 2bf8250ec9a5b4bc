import type { TaskStore } from './task-store';

/** The shared stores (`checkpoints`) this process started: their rounds can go on on another instance. */
const sharedStores = new Set<TaskStore>();

/** Remembers a store once it runs rounds here, if it is shared by instances. */
export function rememberSharedStore(store: TaskStore): void {
  if (store.checkpoints) sharedStores.add(store);
}

/**
 * Stops this process taking task rounds and hands those in flight to other instances (each shared
 * store's `close()`), as `serveHttp`'s `close()` does before it stops listening. A memory store
 * is left alone: its tasks have nowhere else to go.
 */
export async function handOverTaskRounds(): Promise<void> {
  const stores = [...sharedStores];
  sharedStores.clear();
  await Promise.all(stores.map((store) => store.close()));
}
