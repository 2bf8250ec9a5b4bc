import type { NewTask, TaskChange, TaskRecord, TaskStatus, TaskView } from './task-store';

/**
 * How `bullmqTasks` keeps a task in Redis (DESIGN §2.13): a hash per task, one field per part, so a
 * change writes only the fields it names. The sealed arguments (`call`) are written once, at
 * creation, and never again (large ones in parts, in a hash of their own: `callParts`); each
 * checkpoint is its own field (`checkpoint:1`, `checkpoint:2`, …, their count in `checkpoints`;
 * `bytes` counts the arguments' and theirs), written once by the fence that proves the round's
 * hold, with the version and the time: no checkpoint rewrites another. A sealed
 * value (base64url text) is stored as the bytes it encodes, a quarter smaller, and read back as that
 * text (`storedValue`, `textOfHash`).
 * The Lua scripts here are each one atomic step: creating under `maxTasks`, a compare-and-set,
 * a cancel (with its message), and a round's fence (its lock's token checked with what it writes).
 */

/** The fields of a record that are not kept as their own hash fields: written once, as JSON. */
const HEAD_FIELD = 'head';

/** The optional sealed or text fields, each its own hash field. */
const PART_FIELDS = ['statusMessage', 'step', 'state', 'inputRequests', 'answers', 'result'] as const;

/** The hash field of a task's `n`th checkpoint (from 1). */
export const CHECKPOINT_FIELD = 'checkpoint:';

/** The fields that hold sealed values (`SealedTaskValue`, base64url text), besides each checkpoint's. */
const SEALED_FIELDS: ReadonlySet<string> = new Set(['call', 'state', 'inputRequests', 'answers', 'result']);

function isSealedField(field: string): boolean {
  return SEALED_FIELDS.has(field) || field.startsWith(CHECKPOINT_FIELD);
}

/**
 * The first byte of a sealed value stored as bytes. A NUL is never in base64url text, so a value
 * without it is one the previous release stored as that text, read as it is: a task in flight
 * across an upgrade of mcpflow goes on.
 */
const BYTES_MARK = Buffer.from([0]);

/** A field's value as Redis keeps it: a sealed value as the bytes its base64url text encodes (after `BYTES_MARK`), any other as text. */
export function storedValue(field: string, value: string): string | Buffer {
  return isSealedField(field) ? Buffer.concat([BYTES_MARK, Buffer.from(value, 'base64url')]) : value;
}

/** A field's value as Redis answered it (bytes), as the record holds it: a sealed value as base64url text again. */
function textOf(field: string, value: Buffer): string {
  if (isSealedField(field) && value[0] === BYTES_MARK[0]) return value.subarray(1).toString('base64url');
  return value.toString('utf8');
}

/**
 * A hash as Redis answered it in bytes (an object, `HGETALL`'s flat reply of pairs, or `values` of
 * `fields` as `HMGET` answers), as text: empty when the hash is gone.
 */
export function textOfHash(reply: Record<string, Buffer> | readonly (Buffer | null)[], fields?: readonly string[]): Record<string, string> {
  const hash: Record<string, string> = {};
  if (fields) {
    fields.forEach((field, index) => {
      const value = (reply as readonly (Buffer | null)[])[index];
      if (value !== null && value !== undefined) hash[field] = textOf(field, value);
    });
  } else if (Array.isArray(reply)) {
    for (let index = 0; index + 1 < reply.length; index += 2) {
      const field = (reply[index] as Buffer).toString('utf8');
      hash[field] = textOf(field, reply[index + 1] as Buffer);
    }
  } else {
    for (const [field, value] of Object.entries(reply as Record<string, Buffer>)) hash[field] = textOf(field, value);
  }
  return hash;
}

type Head = Pick<NewTask, 'taskId' | 'tool' | 'principal' | 'createdAt' | 'ttlMs' | 'pollIntervalMs'>;

/**
 * From how many characters a task's sealed arguments are kept apart from its hash, in parts
 * (`callParts`), each written by a plain `HSET` before the creating script, not through it: Redis's
 * Lua copies a large argument slowly (a 5.6 MB one took the script 90–380 ms where a plain `HSET`
 * took under a millisecond), and every client waits. Kept apart, they are not in the reply of the
 * task's `HGETALL` either.
 */
export const LARGE_CALL_CHARACTERS = 64 * 1024;

/**
 * The most bytes one command writes or reads of large arguments: each part is one `HSET` and one
 * `HGET` (with 4 MiB in one command, Redis was busy up to 54 ms with it, under load, and every
 * other client waited; BENCHMARKS.md `tasks-bullmq`).
 */
const CALL_PART_BYTES = 256 * 1024;

/** The key of a task's large arguments: a hash of their parts, `1` to `callParts`. */
export function callPartsKey(taskKey: string): string {
  return `${taskKey}:call`;
}

/**
 * The hash fields of a new task, as `field, value` pairs, with its arguments as `storedValue` keeps
 * them (the only time they are written): as its `call` field, or, `parted`, as `parts` of at most
 * `CALL_PART_BYTES` for their own key (`callPartsKey`), with `callParts` (how many) and
 * `callBytes` (their length) in the task's hash.
 */
export function newTaskFields(record: TaskRecord, parted = false): { fields: (string | Buffer)[]; parts: Buffer[] } {
  const { taskId, tool, principal, createdAt, ttlMs, pollIntervalMs } = record;
  const head: Head = { taskId, tool, ...(principal === undefined ? {} : { principal }), createdAt, ttlMs, pollIntervalMs };
  const call = storedValue('call', record.call) as Buffer;
  const fields: (string | Buffer)[] = [HEAD_FIELD, JSON.stringify(head), 'status', record.status, 'version', String(record.version)];
  fields.push('lastUpdatedAt', String(record.lastUpdatedAt));
  const parts = parted
    ? Array.from({ length: Math.ceil(call.length / CALL_PART_BYTES) }, (_, index) =>
        call.subarray(index * CALL_PART_BYTES, (index + 1) * CALL_PART_BYTES),
      )
    : [];
  fields.push(...(parted ? ['callParts', String(parts.length), 'callBytes', String(call.length)] : ['call', call]));
  return { fields: [...fields, 'bytes', String(call.length)], parts };
}

/** Large arguments from their parts as Redis answered them (`HGET` of each), as text; `undefined` when one is gone (the task expired). */
export function callOfParts(parts: readonly (Buffer | null)[]): string | undefined {
  if (parts.some((part) => part === null)) return undefined;
  return textOf('call', Buffer.concat(parts as Buffer[]));
}

/** A record from its hash as text (`textOfHash`), or `undefined` when the hash is gone. */
export function recordOfHash(hash: Readonly<Record<string, string>>): TaskRecord | undefined {
  if (hash[HEAD_FIELD] === undefined) return undefined;
  const record: Record<string, unknown> = {
    ...(JSON.parse(hash[HEAD_FIELD]) as Head),
    call: hash.call,
    status: hash.status as TaskStatus,
    version: Number(hash.version),
    lastUpdatedAt: Number(hash.lastUpdatedAt),
  };
  for (const field of PART_FIELDS) if (hash[field] !== undefined) record[field] = hash[field];
  const count = Number(hash.checkpoints ?? 0);
  if (count > 0) record.checkpoints = Array.from({ length: count }, (_, index) => hash[`${CHECKPOINT_FIELD}${index + 1}`]);
  return record as unknown as TaskRecord;
}

/** The hash fields a client's request reads (`TaskView`): all but the arguments and the checkpoints. */
export const VIEW_FIELDS = [HEAD_FIELD, 'status', 'version', 'lastUpdatedAt', ...PART_FIELDS];

/** A task's view from `HMGET` of `VIEW_FIELDS` (in bytes), or `undefined` when the hash is gone. */
export function viewOfFields(values: readonly (Buffer | null)[]): TaskView | undefined {
  const record = recordOfHash(textOfHash(values, VIEW_FIELDS));
  if (record === undefined) return undefined;
  const { call: _call, ...view } = record;
  return view;
}

/** A change as the scripts take it: the count of `field, value` pairs to set, the pairs, then the fields to delete. */
export function changeArguments(change: TaskChange): (string | Buffer)[] {
  const set: (string | Buffer)[] = [];
  const deleted: string[] = [];
  for (const [field, value] of Object.entries(change)) {
    if (value === undefined) continue;
    if (value === null) deleted.push(field);
    else set.push(field, storedValue(field, String(value)));
  }
  return [String(set.length / 2), ...set, ...deleted];
}

/**
 * Lua shared by the scripts: whether a status is terminal; the fields of a task's checkpoints (`count`
 * of them, and what counts their bytes); and how a change (`changeArguments` from ARGV[from]) is
 * applied to `task` (its `TASK_FIELDS`, read with HMGET): one HSET (the fields, the time, the next
 * version, which it answers), one HDEL when fields go (`checkpoints` among them: every checkpoint,
 * and the task's bytes back to its arguments').
 */
const LUA_HELPERS = `
local function terminal(status) return status == 'completed' or status == 'failed' or status == 'cancelled' end
local function call_bytes(key)
  local parted = redis.call('HGET', key, 'callBytes')
  if parted then return parted end
  return redis.call('HSTRLEN', key, 'call')
end
local function checkpoint_fields(count, fields)
  for i = 1, tonumber(count or '0') do fields[#fields + 1] = '${CHECKPOINT_FIELD}' .. i end
  return fields
end
local function apply(key, from, now, task)
  local pairs = tonumber(ARGV[from])
  local version = tonumber(task[2]) + 1
  local set = {'lastUpdatedAt', math.max(tonumber(task[3] or '0'), tonumber(now)), 'version', version}
  local ending = false
  for i = from + 1, from + 2 * pairs, 2 do
    set[#set + 1] = ARGV[i]
    set[#set + 1] = ARGV[i + 1]
    if ARGV[i] == 'status' and terminal(ARGV[i + 1]) then ending = true end
  end
  if #ARGV > from + 2 * pairs then
    local deleted = {}
    for i = from + 1 + 2 * pairs, #ARGV do
      deleted[#deleted + 1] = ARGV[i]
      if ARGV[i] == 'checkpoints' and task[4] then
        checkpoint_fields(task[4], deleted)
        -- The task's bytes back to its arguments', for its next round's checkpoints (a task that ends has none).
        if not ending then
          set[#set + 1] = 'bytes'
          set[#set + 1] = call_bytes(key)
        end
      end
    end
    redis.call('HDEL', key, unpack(deleted))
  end
  redis.call('HSET', key, unpack(set))
  return version
end
`;

/** `VIEW_FIELDS` as the arguments of a script's `HMGET`. */
const VIEW_FIELD_LIST = VIEW_FIELDS.map((field) => `'${field}'`).join(', ');

/** What the scripts read of a task before they change it (`apply`'s `task`). */
const TASK_FIELDS = "'status', 'version', 'lastUpdatedAt', 'checkpoints'";

/**
 * Creates a task unless `maxTasks` tasks are kept, or its client keeps `maxTasksPerClient`: each set
 * of live task refs (scored by expiry) is counted, and loses those expired only when it is full
 * (then counted again); `full`, `client-full`, or the task stored and counted, atomically for every
 * instance. (A ref is an HMAC of 192 random bits: no task is created twice, and none is looked for.) Large arguments
 * (`LARGE_CALL_CHARACTERS`) come before, in their own key with the TTL: a task refused drops them; a
 * task's keeps them a second past the task's TTL, so that no reader finds the task without them. KEYS:
 * the task, the set, the client's set, the large arguments'. ARGV: now, maxTasks, ttlMs, its expiry,
 * its ref, maxTasksPerClient ('' for a task of no known client), '1' when its arguments are large
 * (else ''), then its fields.
 */
export const CREATE_TASK = `
local function room(set, max)
  if redis.call('ZCARD', set) < max then return true end
  redis.call('ZREMRANGEBYSCORE', set, '-inf', ARGV[1])
  return redis.call('ZCARD', set) < max
end
if not room(KEYS[2], tonumber(ARGV[2])) then
  redis.call('DEL', KEYS[4])
  return 'full'
end
if ARGV[6] ~= '' then
  if not room(KEYS[3], tonumber(ARGV[6])) then
    redis.call('DEL', KEYS[4])
    return 'client-full'
  end
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[7] ~= '' then redis.call('PEXPIRE', KEYS[4], tonumber(ARGV[3]) + 1000) end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 'ok'
`;

/**
 * A compare-and-set: the change is applied only to a live task at the expected version. Answers
 * `{ 'ok' | 'stale', …the task's view (HMGET of VIEW_FIELDS) }`, or `{ 'gone' }`. KEYS: the task. ARGV: the version, now, the change.
 */
export const UPDATE_TASK = `${LUA_HELPERS}
local task = redis.call('HMGET', KEYS[1], ${TASK_FIELDS})
if not task[1] then return {'gone'} end
local answer = 'stale'
if not terminal(task[1]) and task[2] == ARGV[1] then
  apply(KEYS[1], 3, ARGV[2], task)
  answer = 'ok'
end
local reply = redis.call('HMGET', KEYS[1], ${VIEW_FIELD_LIST})
table.insert(reply, 1, answer)
return reply
`;

/**
 * Cancels a live task (its state, checkpoint, questions and answers dropped) and tells every
 * instance on the channel, in one step; a terminal task stays as it is. Answers the task's view
 * (HMGET of VIEW_FIELDS, all nil when gone). KEYS: the task. ARGV: now, the channel, the task id.
 */
export const CANCEL_TASK = `${LUA_HELPERS}
local task = redis.call('HMGET', KEYS[1], ${TASK_FIELDS})
if task[1] and not terminal(task[1]) then
  redis.call('HDEL', KEYS[1], unpack(checkpoint_fields(task[4], {'state', 'inputRequests', 'answers', 'checkpoints'})))
  redis.call('HSET', KEYS[1], 'status', 'cancelled', 'lastUpdatedAt', math.max(tonumber(task[3] or '0'), tonumber(ARGV[1])), 'version', tonumber(task[2]) + 1)
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return redis.call('HMGET', KEYS[1], ${VIEW_FIELD_LIST})
`;

/**
 * A round's fence (DESIGN §2.13): the round's BullMQ lock still holds its token, the task is
 * `working` at the round's version, and its checkpoint (if it brings one) keeps the task within
 * `maxTaskBytes` (the task's `bytes`: its arguments and checkpoints); then the checkpoint is added as
 * the task's next one (the ones before and the arguments untouched) with the step the round runs next
 * (`statusMessage`, if given), and the new version answered — one HSET. Otherwise nothing is written
 * and the answer says why: `lost`, `gone`, `terminal`, `changed`, `too-large`. A round's end (a
 * change, as `changeArguments` gives it, after the step) is applied in place of a checkpoint, in the
 * same step. KEYS: the task, the round's lock. ARGV: the token, the version, now, maxTaskBytes, the
 * checkpoint ('' for none), the statusMessage ('' for none), the step as JSON ('' for none; written
 * with its statusMessage), then the end (none: no end).
 */
export const FENCE_ROUND = `${LUA_HELPERS}
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 'lost' end
local task = redis.call('HMGET', KEYS[1], 'status', 'version', 'lastUpdatedAt', 'checkpoints', 'bytes')
if not task[1] then return 'gone' end
if task[1] == 'completed' or task[1] == 'failed' or task[1] == 'cancelled' then return 'terminal' end
if task[1] ~= 'working' or task[2] ~= ARGV[2] then return 'changed' end
if #ARGV > 7 then return apply(KEYS[1], 8, ARGV[3], task) end
local version = tonumber(task[2]) + 1
local set = {'lastUpdatedAt', math.max(tonumber(task[3] or '0'), tonumber(ARGV[3])), 'version', version}
if ARGV[5] ~= '' then
  local bytes = tonumber(task[5] or '0') + #ARGV[5]
  if bytes > tonumber(ARGV[4]) then return 'too-large' end
  local count = tonumber(task[4] or '0') + 1
  set[#set + 1] = '${CHECKPOINT_FIELD}' .. count
  set[#set + 1] = ARGV[5]
  set[#set + 1] = 'checkpoints'
  set[#set + 1] = count
  set[#set + 1] = 'bytes'
  set[#set + 1] = bytes
end
if ARGV[6] ~= '' then
  set[#set + 1] = 'statusMessage'
  set[#set + 1] = ARGV[6]
end
if ARGV[7] ~= '' then
  set[#set + 1] = 'step'
  set[#set + 1] = ARGV[7]
end
redis.call('HSET', KEYS[1], unpack(set))
return version
`;
