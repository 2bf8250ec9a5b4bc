// A run's progress in plain words: "Step 2 of 5: build", never the raw "1.5/5" of the wire.
import type { Progress } from './types';

const STEP = /^(Started|Finished|Skipped|Failed|Cancelled|Handed off) step (\d+ of \d+: .*)$/s;
const ITEM = /^Finished item (\d+ of \d+) of step (\d+ of \d+: .*)$/s;

const ENDED: Readonly<Record<string, string>> = {
  Finished: 'done',
  Skipped: 'skipped',
  Failed: 'failed',
  Cancelled: 'cancelled',
  'Handed off': 'handed off',
};

/** Where the run is, from a progress message of mcpflow's: `Step 2 of 5: build`, `Step 4 of 5: ship, item 2 of 3 done`. */
export function progressWords(event: Progress): string {
  const message = event.message ?? '';
  const item = ITEM.exec(message);
  if (item) return `Step ${item[2]}, item ${item[1]} done`;
  const step = STEP.exec(message);
  if (step) return step[1] === 'Started' ? `Step ${step[2]}` : `Step ${step[2]}, ${ENDED[step[1]]}`;
  // Another server's message as it wrote it; else the amount done, in words.
  if (message) return message;
  return event.total === undefined ? `${event.progress} done` : `${event.progress} of ${event.total} done`;
}

/** When it happened, after the run started: `at 1.2 s`, `at 40 ms`. */
export function elapsedWords(ms: number): string {
  return ms >= 1000 ? `at ${(ms / 1000).toFixed(1)} s` : `at ${Math.round(ms)} ms`;
}
