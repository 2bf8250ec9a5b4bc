import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { createClient as createClientV5, createCluster as createClusterV5 } from 'redis-v5';
import type { RedisClientLike } from '../../packages/core/src/adapter-kit/pause/redis-client';
import { REDIS_REQUIRED, redisServerInstalled, type RedisServer } from './redis-server';

/**
 * Every Redis client `redisReplayGuard` accepts, connected to a real `redis-server`
 * (`./redis-server`): node-redis 6 and 5, ioredis, and their cluster clients; and the `describe`
 * the Redis tests run under. Written once for the guard's test files.
 *
 *   const describeWithRedis = describeIfRedis();
 *   describeWithRedis.each(redisClientKinds('node-redis 6 client', 'ioredis client'))('… $label', (kind) => { … });
 */

/** A login for the server, as a client option: used for a user Redis refuses SET to. */
export interface RedisLogin {
  readonly username: string;
  readonly password: string;
}

/** A connected client, and how to close it. */
export interface RedisConnection {
  readonly client: RedisClientLike;
  close(): Promise<void>;
}

/** One client library's way of connecting, alone or to a one-node cluster. */
export interface RedisClientKind {
  readonly label: string;
  readonly cluster: boolean;
  connect(server: RedisServer, login?: RedisLogin): Promise<RedisConnection>;
}

/** A client's `error` events are the test's to assert through the guard, not to print. */
const quiet = () => undefined;

/** The kinds, labelled as the tests name them. */
export const REDIS_CLIENT_KINDS: readonly RedisClientKind[] = [
  {
    label: 'node-redis 6 client',
    cluster: false,
    async connect(server, login) {
      const client = createClient({ url: server.url, ...login });
      client.on('error', quiet);
      await client.connect();
      return { client, close: async () => client.destroy() };
    },
  },
  {
    label: 'node-redis 5 client',
    cluster: false,
    async connect(server, login) {
      const client = createClientV5({ url: server.url, ...login });
      client.on('error', quiet);
      await client.connect();
      return { client, close: async () => client.destroy() };
    },
  },
  {
    label: 'ioredis client',
    cluster: false,
    async connect(server, login) {
      const client = new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: true, disconnectTimeout: 50, ...login });
      client.on('error', quiet);
      await client.connect();
      return { client, close: async () => client.disconnect() };
    },
  },
  {
    label: 'node-redis 6 cluster',
    cluster: true,
    async connect(server, login) {
      const client = createCluster({ rootNodes: [{ url: server.url }], defaults: { ...login } });
      client.on('error', quiet);
      await client.connect();
      return { client, close: async () => client.destroy() };
    },
  },
  {
    label: 'node-redis 5 cluster',
    cluster: true,
    async connect(server, login) {
      const client = createClusterV5({ rootNodes: [{ url: server.url }], defaults: { ...login } });
      client.on('error', quiet);
      await client.connect();
      return { client, close: async () => client.destroy() };
    },
  },
  {
    label: 'ioredis cluster',
    cluster: true,
    async connect(server, login) {
      const client = new Cluster([{ host: '127.0.0.1', port: server.port }], { lazyConnect: true, redisOptions: { ...login } });
      client.on('error', quiet);
      await client.connect();
      return { client, close: async () => client.disconnect() };
    },
  },
];

/** The kinds with these labels, in this order. */
export function redisClientKinds(...labels: string[]): RedisClientKind[] {
  return labels.map((label) => {
    const kind = REDIS_CLIENT_KINDS.find((each) => each.label === label);
    if (!kind) throw new Error(`no Redis client kind '${label}'`);
    return kind;
  });
}

/**
 * `describe` when `redis-server` is installed, else `describe.skip`; in CI (`REDIS_REQUIRED`) a
 * missing server is a failing test instead. Call it once, at the top of a test file.
 */
export function describeIfRedis(): jest.Describe {
  const available = redisServerInstalled();
  if (!available && REDIS_REQUIRED) {
    test('redis-server is installed (CI runs the Redis replay guard against a real server)', () => {
      throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it when missing)');
    });
  }
  return available ? describe : describe.skip;
}
