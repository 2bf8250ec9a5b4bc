import * as path from 'node:path';
import { startStudio } from '@mcpflow/studio';
import type { BenchCase } from '../case';
import { fmt } from '../report';
import { sized } from '../run-options';

/** How many runs of the studio's page are in flight at once. */
const CONCURRENCY = 8;
const PAYLOAD_BYTES = 100_000;
/** The studio's default bound on the bytes of runs it keeps (packages/studio/src/server/run-history.ts). */
const DEFAULT_HISTORY_BYTES = 32 * 1024 * 1024;

const MIB = 1024 * 1024;

/**
 * Issue 40: the studio's own memory after many runs. A studio (`startStudio`, defaults: at most 200
 * runs and 32 MiB of them kept) in this process, on a stdio server whose tool answers 100 kB of
 * text each run, starts 1,000 runs through its HTTP API as the page does (`POST /api/runs`, then
 * `GET /api/runs/:id` until the run ended), 8 at a time. Figures: the heap's growth — the heap
 * after GC, less the heap after GC with the studio connected and one run done (its baseline) —
 * beside the bytes bound; and what the studio counts as kept (`GET /api/runs` → `kept`: the bytes
 * its runs hold on the heap, which the bound evicts by).
 */
export const studioHistory: BenchCase = {
  name: 'studio-history',
  async run(options) {
    const { runs } = sized(options, { runs: 1000 }, { runs: 20 });
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('run with node --expose-gc');
    const settle = (): number => {
      for (let index = 0; index < 3; index += 1) gc();
      return process.memoryUsage().heapUsed;
    };
    const server = path.join(__dirname, '..', 'fixtures', 'studio-memory-server.js');
    process.env.PAYLOAD_BYTES = String(PAYLOAD_BYTES);
    const studio = await startStudio({
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(server)}`,
      onConnection: () => undefined,
    });
    const base = `http://127.0.0.1:${studio.port}`;
    const headers = { 'x-mcpflow-token': studio.token, 'content-type': 'application/json', origin: base };
    const api = async <T>(route: string, body?: unknown): Promise<T> => {
      const response = await fetch(base + route, { method: body === undefined ? 'GET' : 'POST', headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`the studio answered ${route} with ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    const oneRun = async (): Promise<void> => {
      const { runId } = await api<{ runId: string }>('/api/runs', { workflow: 'payload', face: 'tool', arguments: {} });
      for (;;) {
        const run = await api<{ status: string; messages: { content: { text: string } }[] }>(`/api/runs/${runId}`);
        if (run.status === 'completed') {
          if (run.messages[0]?.content.text.length !== PAYLOAD_BYTES) throw new Error('a run did not carry its 100 kB payload');
          return;
        }
        if (run.status !== 'running') throw new Error(`a run ended ${run.status}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    try {
      await api('/api/workflows');
      await oneRun();
      const before = settle();
      let started = 1;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (started < runs) {
            started += 1;
            await oneRun();
          }
        }),
      );
      const after = settle();
      const { kept } = await api<{ kept: { runs: number; bytes: number; maxRuns: number; maxBytes: number } }>('/api/runs');
      const growth = after - before;
      const result = { runs, payloadBytes: PAYLOAD_BYTES, heapGrowthBytes: growth, kept };
      return {
        result,
        figures: [
          {
            benchmark: `40. the studio's heap growth after ${runs.toLocaleString('en')} runs of 100 kB (after GC, over the studio with one run)`,
            figure: `${fmt(growth / MIB, 1)} MiB; kept ${kept.runs} runs, counted ${fmt(kept.bytes / MIB, 1)} MiB (bounds ${kept.maxRuns} runs, ${fmt(kept.maxBytes / MIB, 0)} MiB)`,
            target: `≤ ${DEFAULT_HISTORY_BYTES / MIB} MiB (the bytes bound)`,
            met: growth <= DEFAULT_HISTORY_BYTES,
          },
        ],
      };
    } finally {
      await studio.close();
    }
  },
};
