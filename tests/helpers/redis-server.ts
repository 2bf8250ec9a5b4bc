import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createClient } from 'redis';

/**
 * A real `redis-server` (Debian package `redis-server`) on a free loopback port, for the tests of
 * the Redis replay guard. Outside CI a machine without it skips those tests; in CI (`CI` set, or
 * `MCPFLOW_REQUIRE_REDIS=1`, which `.ci/run` sets after installing it) they fail instead, so a
 * broken guard cannot pass unseen.
 *
 *   const redis = await startRedisServer();            // or { cluster: true }: one node holding every slot
 *   … createClient({ url: redis.url }) …
 *   await redis.restart();                             // same port, data lost (no persistence); { persist: true } keeps it
 *   await redis.frozen(async () => …);               // not answering meanwhile; answers late after
 *   await redis.flushAll();
 *   await redis.squeeze('volatile-lru');              // little memory left, then another tenant's writes evict keys
 *   await redis.stop();
 */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /**
   * Stops the server and starts it again on the same port: with `persist`, it saves its data first
   * and loads it back; with `crash`, it is killed (SIGKILL) and loads what it last `save`d — older
   * than what it held. `whileDown` runs while it is stopped.
   */
  restart(options?: { persist?: boolean; crash?: boolean; whileDown?: () => Promise<unknown> }): Promise<void>;
  /** `SAVE`: a snapshot of the data now, which a `crash` restart loads. */
  save(): Promise<void>;
  /** Stops the server's process (SIGSTOP) while `frozen` runs, then lets it go on (SIGCONT): it answers what it was sent meanwhile, late. */
  frozen<T>(frozen: () => Promise<T>): Promise<T>;
  /** `FLUSHALL`: every key of every database gone. */
  flushAll(): Promise<void>;
  /**
   * Sets `maxmemory-policy` to `policy` and `maxmemory` a little above what Redis uses now, then
   * writes another tenant's keys (each with a TTL, 64 KiB in all per round) until Redis has evicted
   * `evictions` keys (default 2,000).
   */
  squeeze(policy: string, evictions?: number): Promise<void>;
  stop(): Promise<void>;
  /** Redis goes away mid-test: a snapshot of its data saved, the server stops (connections refused). */
  down(): Promise<void>;
  /** Redis comes back after `down()`: on the same port, with the data it had. */
  up(): Promise<void>;
}

export const REDIS_REQUIRED = Boolean(process.env.CI) || process.env.MCPFLOW_REQUIRE_REDIS === '1';

/** Whether `redis-server` can be run here. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Starts a `redis-server` with no persistence on 127.0.0.1; `cluster`: cluster mode, one node serving all 16384 slots. */
export async function startRedisServer({ cluster = false }: { cluster?: boolean } = {}): Promise<RedisServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startOnce(cluster);
    } catch (error) {
      lastError = error; // most likely the free port was taken in between: try another
    }
  }
  throw new Error(`could not start redis-server: ${String(lastError)}`);
}

async function startOnce(cluster: boolean): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpflow-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess;
  const launch = async () => {
    // DEBUG SLEEP (from loopback only) lets a test stall the server as a slow disk or a long script would.
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--enable-debug-command',
      'local',
    ];
    if (cluster) args.push('--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-announce-ip', '127.0.0.1');
    child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    await ready(child);
  };
  const stop = () => stopChild(child).finally(() => rmSync(dir, { recursive: true, force: true }));
  const admin = async <T>(work: (client: { sendCommand(args: string[]): Promise<unknown> }) => Promise<T>): Promise<T> => {
    const client = createClient({ url });
    client.on('error', () => undefined); // SHUTDOWN closes its socket
    await client.connect();
    try {
      return await work(client);
    } finally {
      client.destroy();
    }
  };
  const server: RedisServer = {
    port,
    url,
    stop,
    async restart({ persist = false, crash = false, whileDown } = {}) {
      if (crash) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      } else if (persist) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        await admin((client) => client.sendCommand(['SHUTDOWN', 'SAVE']).catch(() => undefined));
        await exited;
      } else {
        rmSync(path.join(dir, 'dump.rdb'), { force: true });
        await stopChild(child);
      }
      await whileDown?.();
      await launch();
    },
    async down() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await admin((client) => client.sendCommand(['SHUTDOWN', 'SAVE']).catch(() => undefined));
      await exited;
    },
    up: () => launch(),
    async frozen(frozen) {
      child.kill('SIGSTOP');
      try {
        return await frozen();
      } finally {
        child.kill('SIGCONT');
      }
    },
    flushAll: () => admin(async (client) => void (await client.sendCommand(['FLUSHALL']))),
    save: () => admin(async (client) => void (await client.sendCommand(['SAVE']))),
    squeeze: (policy, evictions = 2_000) =>
      admin(async (client) => {
        const used = Number(/used_memory:(\d+)/.exec(String(await client.sendCommand(['INFO', 'memory'])))![1]);
        await client.sendCommand(['CONFIG', 'SET', 'maxmemory-policy', policy]);
        await client.sendCommand(['CONFIG', 'SET', 'maxmemory', String(used + 2 * 1024 * 1024)]);
        const evicted = async () => Number(/evicted_keys:(\d+)/.exec(String(await client.sendCommand(['INFO', 'stats'])))![1]);
        const start = await evicted();
        const value = 'x'.repeat(1024);
        for (let batch = 0; (await evicted()) - start < evictions; batch += 1) {
          if (batch > 2_000) throw new Error(`redis-server evicted fewer than ${evictions} keys under ${policy}`);
          await Promise.all(
            Array.from({ length: 64 }, (_, index) => client.sendCommand(['SET', `tenant-b:${batch}:${index}`, value, 'EX', '3600'])),
          );
        }
      }),
  };
  try {
    await launch();
    if (cluster) await assignAllSlots(url);
    return server;
  } catch (error) {
    await stop();
    throw error;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
}

async function assignAllSlots(url: string): Promise<void> {
  const admin = createClient({ url });
  await admin.connect();
  try {
    await admin.sendCommand(['CLUSTER', 'ADDSLOTSRANGE', '0', '16383']);
    for (let waited = 0; waited < 10_000; waited += 50) {
      if (String(await admin.sendCommand(['CLUSTER', 'INFO'])).includes('cluster_state:ok')) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the one-node cluster did not reach cluster_state:ok within 10 s');
  } finally {
    await admin.close();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
