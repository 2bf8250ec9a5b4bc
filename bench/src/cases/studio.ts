import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStudio, type Studio } from '@mcpflow/studio';
import type { BenchCase } from '../case';
import { startServerProcess, type ServerProcess } from '../http/server-process';
import { stats } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';

/** How often the page polls `GET /api/server` (packages/studio/page/src/connection.ts). */
const PAGE_POLL_MS = 2000;
const CLIENTS = 16;

interface StudioSizes {
  warmupMs: number;
  rounds: number;
  durationMs: number;
  listings: number;
}

/** A page left open: `GET /api/workflows` on load, then `GET /api/server` every 2 s, with the token. */
function openPage(studio: Studio): { close(): Promise<void> } {
  const base = `http://127.0.0.1:${studio.port}`;
  const get = async (route: string): Promise<void> => {
    const response = await fetch(base + route, { headers: { 'x-mcpflow-token': studio.token } });
    if (!response.ok) throw new Error(`the studio answered ${route} with ${response.status}: ${await response.text()}`);
    await response.text();
  };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let pending: Promise<void> = (async () => {
    await get('/api/server');
    await get('/api/workflows');
  })();
  const poll = (): void => {
    if (closed) return;
    timer = setTimeout(() => {
      pending = pending.then(() => get('/api/server')).then(poll);
    }, PAGE_POLL_MS);
  };
  poll();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await pending;
    },
  };
}

async function loop(clients: Client[], durationMs: number): Promise<{ perSecond: number; requests: number }> {
  let requests = 0;
  const deadline = Date.now() + durationMs;
  const start = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline) {
        await client.getPrompt({ name: 'chain', arguments: { input: 'hello' } });
        requests += 1;
      }
    }),
  );
  return { perSecond: requests / (Number(process.hrtime.bigint() - start) / 1e9), requests };
}

/** One round of the ordinary clients' prompts/get: requests per second and the server's CPU µs per request. */
async function round(server: ServerProcess, clients: Client[], durationMs: number): Promise<{ perSecond: number; cpuUs: number }> {
  const before = await server.cpuMs();
  const { perSecond, requests } = await loop(clients, durationMs);
  return { perSecond, cpuUs: (((await server.cpuMs()) - before) * 1000) / requests };
}

/**
 * One prompts/list + tools/list (the listing the studio makes): µs by the client's wall clock (two
 * HTTP round trips) and µs of the server's CPU time; and the bytes of the workflow's `_meta`.
 */
async function listingCost(server: ServerProcess, client: Client, listings: number) {
  const prompts = await client.listPrompts();
  const meta = prompts.prompts.find((prompt) => prompt.name === 'chain')?._meta?.['mcpflow/workflow'];
  if (meta === undefined)
    throw new Error('the served workflow\'s prompt carries no _meta["mcpflow/workflow"]: the studio would list nothing');
  const timed = async (pair: () => Promise<unknown>): Promise<{ us: number; cpuUs: number }> => {
    const cpuBefore = await server.cpuMs();
    const start = process.hrtime.bigint();
    for (let i = 0; i < listings; i += 1) await pair();
    const us = Number(process.hrtime.bigint() - start) / 1000 / listings;
    return { us, cpuUs: (((await server.cpuMs()) - cpuBefore) * 1000) / listings };
  };
  const listing = { us: [] as number[], cpuUs: [] as number[] };
  const baseline = { us: [] as number[], cpuUs: [] as number[] };
  for (let batch = 0; batch < 6; batch += 1) {
    for (const [side, pair] of [
      [listing, async () => (await client.listPrompts(), await client.listTools())],
      [
        baseline,
        async () => (
          await client.getPrompt({ name: 'static', arguments: { input: 'hello' } }),
          await client.getPrompt({ name: 'static', arguments: { input: 'hello' } })
        ),
      ],
    ] as const) {
      const { us, cpuUs } = await timed(pair);
      side.us.push(us);
      side.cpuUs.push(cpuUs);
    }
  }
  return { listing, baseline, metaBytes: Buffer.byteLength(JSON.stringify(meta)) };
}

/**
 * Issue 29: what the studio adds to a run's time when open. The engine case's 4-step workflow,
 * served over Streamable HTTP (SDK 1.x sessions) in a child process, prompts/get by 16 ordinary
 * clients; rounds alternate between the studio closed and the studio open (`startStudio` connected
 * to the same server, its page's polling driven by the case), paired round by round.
 */
export const studio: BenchCase = {
  name: 'studio',
  async run(options) {
    const sizes = sized<StudioSizes>(
      options,
      { warmupMs: 1000, rounds: 8, durationMs: 2000, listings: 100 },
      { warmupMs: 100, rounds: 2, durationMs: 100, listings: 2 },
    );
    const server = await startServerProcess(path.join(__dirname, '..', 'fixtures', 'http-server-v1.js'));
    try {
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const client = new Client({ name: 'bench', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(server.url));
          return client;
        }),
      );
      const listing = await listingCost(server, clients[0], sizes.listings);
      await loop(clients, sizes.warmupMs);
      const samples = { open: [] as number[], closed: [] as number[] };
      const cpu = { open: [] as number[], closed: [] as number[] };
      for (let index = 0; index < sizes.rounds; index += 1) {
        for (const side of index % 2 ? (['closed', 'open'] as const) : (['open', 'closed'] as const)) {
          if (side === 'closed') {
            const measured = await round(server, clients, sizes.durationMs);
            samples.closed.push(measured.perSecond);
            cpu.closed.push(measured.cpuUs);
            continue;
          }
          const opened = await startStudio({ url: server.url.href });
          if (opened.server().connection.state !== 'connected')
            throw new Error(`the studio did not connect: ${JSON.stringify(opened.server().connection)}`);
          const page = openPage(opened);
          try {
            const measured = await round(server, clients, sizes.durationMs);
            samples.open.push(measured.perSecond);
            cpu.open.push(measured.cpuUs);
          } finally {
            await page.close();
            await opened.close();
          }
        }
      }
      await Promise.all(clients.map((client) => client.close()));
      const result = {
        open: stats(samples.open),
        closed: stats(samples.closed),
        paired: stats(samples.open.map((value, index) => samples.closed[index] / value)),
        openCpuUs: stats(cpu.open),
        closedCpuUs: stats(cpu.closed),
        cpuPaired: stats(cpu.open.map((value, index) => value / cpu.closed[index])),
        listingUs: stats(listing.listing.us),
        listingCpuUs: stats(listing.listing.cpuUs),
        twoStaticGetsUs: stats(listing.baseline.us),
        twoStaticGetsCpuUs: stats(listing.baseline.cpuUs),
        metaBytes: listing.metaBytes,
      };
      return {
        result,
        figures: [
          {
            benchmark: '29. studio open ÷ closed, 16 clients prompts/get over Streamable HTTP (SDK 1.x)',
            figure:
              `time per request, paired by round ${range(result.paired, '', 3)}; ` +
              `req/s open ${range(result.open, '', 0)} / closed ${range(result.closed, '', 0)}; ` +
              `server CPU per request ${fmt(result.openCpuUs.median, 0)} / ${fmt(result.closedCpuUs.median, 0)} µs, paired ${fmt(result.cpuPaired.median, 3)}`,
            target: 'paired ratio ≤ 1.02',
            met: result.paired.median <= 1.02,
          },
          {
            benchmark: '29. one prompts/list + tools/list with _meta["mcpflow/workflow"] (the studio\'s listing)',
            figure: `${range(result.listingUs, 'µs')} by wall clock; server CPU ${range(result.listingCpuUs, 'µs')}; two prompts/get of a static prompt, same client: ${fmt(result.twoStaticGetsUs.median, 0)} µs, server CPU ${fmt(result.twoStaticGetsCpuUs.median, 0)} µs`,
            target: 'reported (the listing cost the studio causes)',
          },
          { benchmark: '29. size of the workflow\'s _meta["mcpflow/workflow"]', figure: `${result.metaBytes} bytes`, target: 'reported' },
        ],
      };
    } finally {
      server.stop();
    }
  },
};
