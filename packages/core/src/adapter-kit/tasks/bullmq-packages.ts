/** How to install what `bullmqTasks` runs on: BullMQ, and ioredis, its Redis client (an optional peer of BullMQ 6, so not installed with it). */
const BULLMQ_INSTALL = 'npm install bullmq ioredis';

/**
 * Loads BullMQ (6.x) and checks that ioredis (5.x) is there too: each missing, or of a major
 * version without the API mcpflow uses, is an error at start that names the install, never a raw
 * `ERR_MODULE_NOT_FOUND` from inside BullMQ.
 */
export async function loadBullmq(): Promise<typeof import('bullmq')> {
  const bullmq = await load('bullmq', () => import('bullmq'), 'the bullmq package (6.x)');
  const ioredis = await load('ioredis', () => import('ioredis'), 'the ioredis package (5.x), which BullMQ 6 runs on but does not install');
  if (typeof (ioredis as { Redis?: unknown }).Redis !== 'function')
    throw new Error(
      `mcpflow bullmqTasks needs ioredis 5.x; the installed ioredis has no Redis class (an older major). Fix: ${BULLMQ_INSTALL}@5`,
    );
  if (typeof bullmq.Worker !== 'function' || typeof bullmq.Queue !== 'function' || typeof bullmq.DelayedError !== 'function')
    throw new Error(
      `mcpflow bullmqTasks needs bullmq 6.x; the installed bullmq lacks its Worker, Queue or DelayedError. Fix: npm install bullmq@6 ioredis`,
    );
  return bullmq;
}

async function load<T>(name: string, loading: () => Promise<T>, what: string): Promise<T> {
  try {
    return await loading();
  } catch (error) {
    throw new Error(`mcpflow bullmqTasks needs ${what}, and '${name}' cannot be loaded. Fix: ${BULLMQ_INSTALL}`, { cause: error });
  }
}
