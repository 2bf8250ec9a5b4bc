/**
 * What `redisReplayGuard` says at its start about the Redis it runs on, once: the line to log when
 * `maxmemory-policy` may cost it its keys or its writes, or when Redis refused `CONFIG GET` (a
 * managed Redis often does), or undefined when the policy is `noeviction`. `reply` is what
 * `CONFIG GET maxmemory-policy` answered (an array, or a map under RESP3); `refused` is its error.
 *
 * @example
 * ```ts
 * const line = evictionWarning(await send(key, ['CONFIG', 'GET', 'maxmemory-policy']));
 * if (line) log?.(line);
 * ```
 */
export function evictionWarning(reply: unknown, refused?: unknown): string | undefined {
  if (refused !== undefined || policyOf(reply) === undefined) {
    return (
      'mcpflow replay guard: could not read Redis maxmemory-policy (CONFIG GET was refused, as managed Redis services often do), so the guard cannot check ' +
      'that Redis keeps its keys: make sure maxmemory-policy is noeviction on the Redis it uses (a dedicated instance, with persistence, is safest).'
    );
  }
  const policy = policyOf(reply)!;
  if (policy === 'noeviction') return undefined;
  const consequence = policy.startsWith('allkeys-')
    ? 'Redis may evict the guard’s keys when memory is full; the guard sees it and refuses every resume for stateTtlSeconds + clockSkewMs after'
    : 'the guard keeps no TTL keys, so it is not evicted itself, but when memory is full and no TTL key is left Redis refuses its writes, and resumes are refused while it does';
  return (
    `mcpflow replay guard: Redis maxmemory-policy is ${policy}: ${consequence}. ` +
    'Set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, or in redis.conf), or give the guard a Redis instance of its own.'
  );
}

function policyOf(reply: unknown): string | undefined {
  const text = (value: unknown) => (Buffer.isBuffer(value) ? value.toString() : value);
  let value: unknown;
  if (Array.isArray(reply)) value = text(reply[1]);
  else if (reply instanceof Map) value = text(reply.get('maxmemory-policy'));
  else if (typeof reply === 'object' && reply !== null) value = text((reply as Record<string, unknown>)['maxmemory-policy']);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
