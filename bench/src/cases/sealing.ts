import { randomBytes } from 'node:crypto';
import { StateSealer } from '@mcpflow/core';
import type { BenchCase } from '../case';
import { stats, type Stats } from '../measure';
import { fmt, range } from '../report';
import { sized, type RunOptions } from '../run-options';

export interface SealingRow {
  bindingsBytes: number;
  sealedChars: number;
  seal: Stats;
  open: Stats;
}

/**
 * Sealing and opening one paused run's state per round, for bindings of about 1 kB and 100 kB:
 * records as a tool returns them (ids, names, a random token each).
 */
function sealingCost(options: RunOptions): SealingRow[] {
  const sealer = new StateSealer({ keys: [randomBytes(32)], maxBytes: 1024 * 1024 });
  const binding = { prompt: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } };
  return [1_000, 100_000].map((target) => {
    const rows: { id: number; name: string; token: string }[] = [];
    while (JSON.stringify(rows).length < target)
      rows.push({ id: rows.length, name: `Project page ${rows.length}`, token: randomBytes(8).toString('hex') });
    const state = { position: 2, bindings: { pages: rows }, messages: [], statuses: ['completed', 'completed', 'skipped', 'skipped'] };
    const sealed = sealer.seal(state, binding);
    if (!sealed.ok) throw new Error('bench state over the limit');
    const time = (run: () => unknown, batch: number): number => {
      const start = process.hrtime.bigint();
      for (let index = 0; index < batch; index += 1) run();
      return Number(process.hrtime.bigint() - start) / 1000 / batch;
    };
    const { batch, rounds } = sized(options, { batch: target > 10_000 ? 20 : 500, rounds: 20 }, { batch: 2, rounds: 2 });
    for (let index = 0; index < batch * 5; index += 1) {
      sealer.seal(state, binding);
      sealer.open(sealed.state, binding);
    }
    const seal: number[] = [];
    const open: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      seal.push(time(() => sealer.seal(state, binding), batch));
      open.push(time(() => sealer.open(sealed.state, binding), batch));
    }
    return { bindingsBytes: JSON.stringify(rows).length, sealedChars: sealed.state.length, seal: stats(seal), open: stats(open) };
  });
}

export const sealing: BenchCase = {
  name: 'sealing',
  async run(options) {
    const rows = sealingCost(options);
    return {
      result: rows,
      figures: rows.map((row) => ({
        benchmark: `11. seal + open a paused run's state, ${fmt(row.bindingsBytes / 1000, 0)} kB of bindings (${row.sealedChars} chars sealed)`,
        figure: `seal ${range(row.seal, 'µs')}, open ${range(row.open, 'µs')}`,
        target: 'reported (µs per round)',
      })),
    };
  },
};
