/**
 * The Lua scripts of `redisReplayGuard`, each run atomically by Redis on one key: a sorted set per
 * bucket that holds the bucket's epoch (score `+inf`) and the rounds consumed in it (score: when
 * the round may be forgotten, in Redis's clock). Nothing in it has a TTL, so a `volatile-*` policy
 * never evicts it; anything that drops the set (a restart without persistence, `FLUSHALL`,
 * `FLUSHDB`, an `allkeys-*` eviction) drops its epoch with its rounds, and the next script sees it.
 * An epoch reads `epoch:<random>:<run_id>:<seen>`: the Redis process that wrote it (`INFO server`'s
 * `run_id`), so a restart that kept the set — from a snapshot older than the last rounds consumed,
 * or a replica that lagged — is a loss too, unless the guard trusts restarts (`survivesRestarts`),
 * and `seen`, when the loss it replaces was seen (0: written at a start, no loss seen).
 * Every script answers `{ verdict, epoch, now }`: `now` is Redis's clock in milliseconds.
 */
const PREAMBLE = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stamp = string.format('%.0f', now)
local epochs = redis.call('ZRANGEBYSCORE', KEYS[1], '+inf', '+inf')
local runid = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)') or ''
local function fresh(id, seen)
  local epoch = id .. ':' .. runid .. ':' .. seen
  if #epochs > 0 then redis.call('ZREM', KEYS[1], epochs[1]) end
  redis.call('ZADD', KEYS[1], '+inf', epoch)
  return epoch
end
local function restarted(epoch)
  return TRUSTED ~= '1' and string.match(epoch, '^[^:]*:[^:]*:([^:]*):') ~= runid
end
`;

/**
 * At the guard's start (ARGV[2]: '1' when it trusts restarts): adopt the bucket's epoch; or write
 * ARGV[1], seen at 0 where the set is missing (it cannot be told from one never written) and seen
 * now where Redis restarted since the epoch was written.
 */
export const START_SCRIPT = `${PREAMBLE.replace('TRUSTED', 'ARGV[2]')}
if #epochs == 0 then return {'started', fresh(ARGV[1], '0'), stamp} end
if restarted(epochs[1]) then return {'started', fresh(ARGV[1], stamp), stamp} end
return {'started', epochs[1], stamp}
`;

/**
 * Consume round ARGV[3] for ARGV[4] ms, if the bucket still holds epoch ARGV[1] and Redis runs it
 * before ARGV[5] (Redis's clock: when the guard stops waiting); ARGV[7]: '1' when the guard trusts
 * restarts. `late`: a command delivered after the guard gave up writes nothing. `lost`: the epoch
 * is gone, was written by a Redis process before a restart, or another one is there; nothing is
 * consumed. A new epoch, ARGV[2] seen now, replaces a missing or restarted one, and one a guard
 * wrote at its start (seen at 0) after the loss: that guard could not tell, and learns of it at its
 * next resume. `stale`: the state was sealed under epoch ARGV[6] (empty: it names none), which the
 * bucket no longer holds — sealed before a loss, its round may have been consumed in what was lost.
 */
export const CONSUME_SCRIPT = `${PREAMBLE.replace('TRUSTED', 'ARGV[7]')}
if now > tonumber(ARGV[5]) then return {'late', '', stamp} end
if #epochs == 0 or restarted(epochs[1]) then return {'lost', fresh(ARGV[2], stamp), stamp} end
if epochs[1] ~= ARGV[1] then
  if string.sub(epochs[1], -2) ~= ':0' then return {'lost', epochs[1], stamp} end
  return {'lost', fresh(ARGV[2], stamp), stamp}
end
if ARGV[6] ~= '' and ARGV[6] ~= epochs[1] then return {'stale', epochs[1], stamp} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. stamp)
if redis.call('ZADD', KEYS[1], 'NX', string.format('%.0f', now + tonumber(ARGV[4])), ARGV[3]) == 1 then
  return {'first', epochs[1], stamp}
end
return {'replayed', epochs[1], stamp}
`;

/** What a script answered. */
export interface ScriptReply {
  readonly verdict: 'started' | 'first' | 'replayed' | 'late' | 'lost' | 'stale';
  readonly epoch: string;
  /** Redis's clock when it ran the script, in milliseconds. */
  readonly now: number;
}

const VERDICTS = new Set(['started', 'first', 'replayed', 'late', 'lost', 'stale']);

/** A script's reply as the guard reads it, or undefined when it is not one (a client's own reply shape, a proxy's). */
export function scriptReply(reply: unknown): ScriptReply | undefined {
  if (!Array.isArray(reply) || reply.length !== 3) return undefined;
  const [verdict, epoch, now] = reply.map((part: unknown) => (Buffer.isBuffer(part) ? part.toString() : part));
  if (typeof verdict !== 'string' || !VERDICTS.has(verdict) || typeof epoch !== 'string') return undefined;
  const clock = Number(now);
  if (!Number.isSafeInteger(clock)) return undefined;
  return { verdict: verdict as ScriptReply['verdict'], epoch, now: clock };
}

/** When a stored epoch's loss was seen, in Redis's clock (0: written at a start, no loss seen). */
export function epochSeenAt(epoch: string): number {
  const seen = Number(epoch.slice(epoch.lastIndexOf(':') + 1));
  return Number.isSafeInteger(seen) ? seen : 0;
}
