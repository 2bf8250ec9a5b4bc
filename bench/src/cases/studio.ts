import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BenchCase } from '../case';
import { startServerProcess, type ServerProcess } from '../http/server-process';
import { startStudioProcess, type StudioProcess } from '../http/studio-process';
import { promptLoop } from '../http/throughput';
import { stats } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';

const CLIENTS = 16;

interface StudioSizes {
  warmupMs: number;
  warmupOpens: number;
  rounds: number;
  durationMs: number;
  listings: number;
}

/** A round's figures: the clients' requests per second; CPU µs per request (the server's, and all three processes'); the studio process's CPU ms per second. */
interface Round {
  perSecond: number;
  cpuUs: number;
  allCpuUs: number;
  studioCpuMsPerS: number;
}

/** One round of the ordinary clients' prompts/get, the CPU time of the server, the studio and this process read around it. */
async function round(server: ServerProcess, studio: StudioProcess, clients: Client[], durationMs: number): Promise<Round> {
  const [serverBefore, studioBefore] = await Promise.all([server.cpuMs(), studio.cpuMs()]);
  const ownBefore = process.cpuUsage();
  const start = process.hrtime.bigint();
  const { perSecond, requests } = await promptLoop(clients, 'chain', durationMs);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const own = process.cpuUsage(ownBefore);
  const [serverAfter, studioAfter] = await Promise.all([server.cpuMs(), studio.cpuMs()]);
  const serverMs = serverAfter - serverBefore;
  const studioMs = studioAfter - studioBefore;
  return {
    perSecond,
    cpuUs: (serverMs * 1000) / requests,
    allCpuUs: ((serverMs + studioMs) * 1000 + own.user + own.system) / requests,
    studioCpuMsPerS: studioMs / seconds,
  };
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
 * served over Streamable HTTP (SDK 1.x, 2025 sessions) by a child process, gets prompts/get from
 * 16 ordinary SDK 1.x clients in this process, in rounds of `durationMs` that alternate (in
 * rotating order) between the studio closed and the studio open; each open round is paired with
 * the closed round next to it.
 *
 * "Open" is what a user running `mcpflow dev --url` with the page in a browser causes, measured
 * where a user would feel it: the studio runs in a third process of its own (as `mcpflow dev`
 * does; fixtures/studio-process.ts), connected to the same server before the round starts (its
 * 2025 session, with its standalone SSE stream held open), and a page left open on it: at the
 * round's start `GET /api/server` and `GET /api/workflows` (which lists `prompts/list` +
 * `tools/list` with each workflow's `_meta["mcpflow/workflow"]` on the server, inside the round),
 * then `GET /api/server` every 2 s. After the round the page and the studio close (its session
 * ends on the server). "Closed" is no studio: its process idles.
 *
 * Figures: the clients' time per request open ÷ closed, paired by round (wall clock: the target);
 * open ÷ closed paired the same way by CPU time per request, the server process's and the three
 * processes' together (this one's clients, the server, the studio: less moved than the wall clock
 * by other work on a shared machine); the studio process's CPU per second open; and, apart, one
 * listing's cost and the size of the `_meta`.
 * The warm-up (clients and studio alike: the studio opened and closed a few times under load) is not measured.
 */
export const studio: BenchCase = {
  name: 'studio',
  async run(options) {
    const sizes = sized<StudioSizes>(
      options,
      { warmupMs: 2000, warmupOpens: 5, rounds: 32, durationMs: 2000, listings: 50 },
      { warmupMs: 100, warmupOpens: 1, rounds: 2, durationMs: 100, listings: 2 },
    );
    const [server, studioProcess] = await Promise.all([
      startServerProcess(path.join(__dirname, '..', 'fixtures', 'http-server-v1.js')),
      startStudioProcess(),
    ]);
    try {
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const client = new Client({ name: 'bench', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(server.url));
          return client;
        }),
      );
      const listing = await listingCost(server, clients[0], sizes.listings);
      // The warm-up opens the studio a few times under load: the first opens load and compile what
      // every later one reuses (a user's mcpflow dev pays that once, at start, not per run), and
      // V8 optimizes the listing's and the session's code on both sides only after a few.
      for (let open = 0; open < sizes.warmupOpens; open += 1) {
        await studioProcess.open(server.url);
        await promptLoop(clients, 'chain', sizes.warmupMs / sizes.warmupOpens);
        await studioProcess.close();
      }
      const samples = { open: [] as number[], closed: [] as number[] };
      const cpu = { open: [] as number[], closed: [] as number[] };
      const allCpu = { open: [] as number[], closed: [] as number[] };
      const studioCpu: number[] = [];
      for (let index = 0; index < sizes.rounds; index += 1) {
        for (const side of index % 2 ? (['closed', 'open'] as const) : (['open', 'closed'] as const)) {
          if (side === 'open') await studioProcess.open(server.url);
          try {
            const measured = await round(server, studioProcess, clients, sizes.durationMs);
            samples[side].push(measured.perSecond);
            cpu[side].push(measured.cpuUs);
            allCpu[side].push(measured.allCpuUs);
            if (side === 'open') studioCpu.push(measured.studioCpuMsPerS);
          } finally {
            if (side === 'open') await studioProcess.close();
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
        allCpuPaired: stats(allCpu.open.map((value, index) => value / allCpu.closed[index])),
        studioCpuMsPerS: stats(studioCpu),
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
              `server CPU per request ${fmt(result.openCpuUs.median, 0)} / ${fmt(result.closedCpuUs.median, 0)} µs, paired ${range(result.cpuPaired, '', 3)}; ` +
              `CPU per request of the three processes (clients, server, studio) paired ${range(result.allCpuPaired, '', 3)}; ` +
              `the studio's process (mcpflow dev and its page) ${range(result.studioCpuMsPerS, 'ms', 1)} of CPU per second open`,
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
      studioProcess.stop();
    }
  },
};
