import { memoryTasks, TaskLimitError, type TaskRoundRunner } from '../../src/adapter-kit';

/** The memory task store (DESIGN §2.13): the TaskStore contract, its bound and its expiry. */

const task = (taskId: string, createdAt = Date.now(), ttlMs = 60_000) => ({
  taskId,
  tool: 'build',
  createdAt,
  ttlMs,
  pollIntervalMs: 1000,
  call: 'sealed-call',
});

test('create, get, and updates made only from the version they name; a terminal task changes no more', async () => {
  const store = memoryTasks();
  const created = await store.create(task('a'));
  expect(created).toMatchObject({ status: 'working', version: 1 });
  expect(await store.get('a')).toEqual(created);
  const parked = await store.update('a', 1, { status: 'input_required', state: 's', inputRequests: 'q' });
  expect(parked).toMatchObject({ ok: true, task: { status: 'input_required', version: 2, state: 's' } });
  expect(await store.update('a', 1, { status: 'working' })).toMatchObject({ ok: false, task: { version: 2 } });
  const done = await store.update('a', 2, { status: 'completed', result: 'r', state: null, inputRequests: null });
  expect(done.ok && done.task).not.toHaveProperty('state');
  expect(await store.update('a', 3, { status: 'working' })).toMatchObject({ ok: false });
  expect(await store.update('missing', 1, {})).toEqual({ ok: false, task: undefined });
});

test('cancel wins over any version, aborts the running round, and leaves a terminal task as it is', async () => {
  const store = memoryTasks();
  let signal: AbortSignal | undefined;
  const runner: TaskRoundRunner = {
    runRound: (_id, given) => new Promise((resolve) => ((signal = given), given.addEventListener('abort', () => resolve()))),
  };
  await store.start(runner);
  await store.create(task('a'));
  await store.schedule('a');
  expect(signal?.aborted).toBe(false);
  expect(await store.cancel('a')).toMatchObject({ status: 'cancelled' });
  expect(signal?.aborted).toBe(true);
  expect(await store.cancel('a')).toMatchObject({ status: 'cancelled', version: 2 });
  expect(await store.cancel('missing')).toBeUndefined();
});

test('over maxTasks, create throws TaskLimitError naming the option', async () => {
  const store = memoryTasks({ maxTasks: 2 });
  await store.create(task('a'));
  await store.create(task('b'));
  await expect(store.create(task('c'))).rejects.toThrow(TaskLimitError);
  await expect(store.create(task('c'))).rejects.toThrow('memoryTasks maxTasks');
  await store.remove('a');
  await expect(store.create(task('c'))).resolves.toMatchObject({ taskId: 'c' });
});

test('a task is forgotten ttlMs after its creation, and the runner hears of it', async () => {
  jest.useFakeTimers();
  try {
    const store = memoryTasks({ ttlMs: 1000 });
    const expired: string[] = [];
    await store.start({ runRound: async () => undefined, expired: (taskId) => expired.push(taskId) });
    const now = Date.now();
    await store.create({ ...task('a', now, 1000) });
    expect(await store.expired(now + 500)).toEqual([]);
    expect(await store.expired(now + 1001)).toEqual(['a']);
    jest.advanceTimersByTime(999);
    expect(await store.get('a')).toBeDefined();
    jest.advanceTimersByTime(2);
    expect(await store.get('a')).toBeUndefined();
    expect(expired).toEqual(['a']);
  } finally {
    jest.useRealTimers();
  }
});
