/** An ioredis client, `new Redis()` or `new Redis.Cluster()` (ioredis 5 or later): commands go through `call`. */
export interface IoredisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A node-redis client, `createClient()` from `redis` 5 or 6: commands go through `sendCommand([...])`. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** A node-redis cluster, `createCluster()` from `redis` 5 or 6: `sendCommand` routes by the key it is given. */
export interface NodeRedisClusterLike {
  sendCommand(firstKey: string, isReadonly: boolean, args: string[]): Promise<unknown>;
  getMasters(): unknown;
}

/** The Redis clients `redisReplayGuard` accepts; it imports neither library and reads the client's shape instead. */
export type RedisClientLike = IoredisClientLike | NodeRedisClientLike | NodeRedisClusterLike;

/** Sends one Redis command whose first argument after the name is its key, the way this client sends raw commands. */
export type RedisCommandSender = (key: string, command: readonly string[]) => Promise<unknown>;

/**
 * How to send a raw command through `client`, or why it is not a client this guard knows. Raw
 * commands, not the libraries' `set(…)` helpers: those take their options in shapes that differ
 * between libraries and versions, and an option one of them ignores would turn `SET NX` into a
 * plain `SET` — a guard that answers "first time" to every replay. A raw command is sent as written,
 * and a client of the wrong kind fails on it instead of dropping an argument.
 */
export function redisCommandSender(client: unknown): RedisCommandSender {
  const candidate = client as Record<string, unknown> | null;
  if (typeof candidate?.call === 'function') {
    const ioredis = client as IoredisClientLike;
    return (_key, [name, ...args]) => ioredis.call(name, ...args);
  }
  if (typeof candidate?.sendCommand === 'function' && typeof candidate.getMasters === 'function') {
    const cluster = client as NodeRedisClusterLike;
    return (key, command) => cluster.sendCommand(key, false, [...command]);
  }
  if (typeof candidate?.sendCommand === 'function') {
    const single = client as NodeRedisClientLike;
    return (_key, command) => single.sendCommand([...command]);
  }
  throw new TypeError(
    'redisReplayGuard(client): expected a connected Redis client — from node-redis (`createClient()` or `createCluster()` of the `redis` package, 5.x or 6.x) ' +
      `or from ioredis (\`new Redis()\` or \`new Redis.Cluster()\`, 5.x or later) — not ${describe(client)}.`,
  );
}

/**
 * Whether `client` says it can send a command now: node-redis `isReady` (`isOpen` on a node-redis 5
 * cluster, which has no `isReady`), ioredis `status` `ready` — or `wait`, an ioredis client made
 * with `lazyConnect` that was never connected: it connects on its first command. A client that says
 * nothing of it counts as ready. The guard asks before each command, since a client that is not ready queues
 * the command and sends it once it reconnects — after the guard refused the resume for lack of an
 * answer, which would consume the round the user's retry needs.
 *
 * @example
 * ```ts
 * if (!redisClientReady(client)) throw unavailable('the Redis client is not connected');
 * ```
 */
export function redisClientReady(client: RedisClientLike): boolean {
  const candidate = client as { isReady?: unknown; isOpen?: unknown; status?: unknown };
  if (typeof candidate.isReady === 'boolean') return candidate.isReady;
  if (typeof candidate.status === 'string') return candidate.status === 'ready' || candidate.status === 'wait';
  if (typeof candidate.isOpen === 'boolean') return candidate.isOpen;
  return true;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object' ? `an instance of ${name}` : 'an object without call() or sendCommand()';
}
