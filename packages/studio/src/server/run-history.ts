import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { RunSummary } from './api-types';
import { StudioRun, type RunRecord } from './studio-run';

/** How many runs the studio keeps by default (`--history-runs`). */
const DEFAULT_HISTORY_RUNS = 200;
/** How many bytes of runs (what they hold on the heap, `StudioRun.bytes`) the studio keeps by default (`--history-bytes`): 32 MiB. */
const DEFAULT_HISTORY_BYTES = 32 * 1024 * 1024;
/** How long a finished run waits before `--history` is written (several runs finishing together write once). */
const SAVE_DELAY_MS = 200;

/** Options of the history. */
export interface HistoryOptions {
  readonly maxRuns?: number;
  readonly maxBytes?: number;
  /** `--history <file>`: runs kept across studio restarts. */
  readonly file?: string;
  /** Told a problem with the file (unreadable, not a history, not writable); the studio goes on. */
  readonly warn?: (message: string) => void;
}

/**
 * The runs the studio process keeps, oldest first, bounded in count and in bytes: past either
 * bound the oldest finished runs are evicted (a running run is never evicted, nor the newest). With a file the
 * finished runs are written to it (a temporary file renamed over it, so a crash leaves the old one
 * whole) and read back at start; a file that is not a history is reported and ignored.
 */
export class RunHistory {
  private readonly runs = new Map<string, StudioRun>();
  private timer?: NodeJS.Timeout;
  private saving?: Promise<void>;
  readonly maxRuns: number;
  readonly maxBytes: number;
  /** What is wrong with the `--history` file, if anything (shown by `GET /api/runs`). */
  problem?: string;

  constructor(private readonly options: HistoryOptions = {}) {
    this.maxRuns = positive(options.maxRuns, DEFAULT_HISTORY_RUNS, 'maxRuns');
    this.maxBytes = positive(options.maxBytes, DEFAULT_HISTORY_BYTES, 'maxBytes');
    if (options.file !== undefined) this.load(options.file);
  }

  get(runId: string): StudioRun | undefined {
    return this.runs.get(runId);
  }

  all(): StudioRun[] {
    return [...this.runs.values()];
  }

  /** How many bytes the kept runs hold on the heap (`StudioRun.bytes`: their objects, events and raw messages). */
  bytes(): number {
    let total = 0;
    for (const run of this.runs.values()) total += run.bytes;
    return total;
  }

  add(run: StudioRun): void {
    this.runs.set(run.runId, run);
    this.evict();
  }

  /** A run ended: evict past the bounds, and write the file soon. */
  finished(): void {
    this.evict();
    if (this.options.file === undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.save(), SAVE_DELAY_MS);
    this.timer.unref();
  }

  /** Writes what is pending now (the studio closes). */
  async flush(): Promise<void> {
    if (this.timer === undefined) return this.saving;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.save();
  }

  summaries(): RunSummary[] {
    return this.all().map((run) => run.summary());
  }

  private evict(): void {
    let bytes = this.bytes();
    const newest = [...this.runs.keys()].at(-1);
    for (const run of this.runs.values()) {
      if (this.runs.size <= this.maxRuns && bytes <= this.maxBytes) return;
      // A running run is never evicted, nor the newest (a run over the byte bound alone is still shown).
      if (!run.done || run.runId === newest) continue;
      this.runs.delete(run.runId);
      bytes -= run.bytes;
    }
  }

  private load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      return this.report(`The history file ${file} could not be read (${(error as Error).message}); the studio starts with no runs.`);
    }
    const runs = parsedHistory(text);
    if (typeof runs === 'string')
      return this.report(
        `The history file ${file} is not a studio history (${runs}); the studio ignores it and writes a new one after the next run.`,
      );
    for (const record of runs) {
      const run = StudioRun.restored(record);
      this.runs.set(run.runId, run);
    }
    this.evict();
  }

  private save(): Promise<void> {
    this.timer = undefined;
    const file = this.options.file!;
    const records = this.all()
      .filter((run) => run.done)
      .map((run) => run.record());
    const write = async (): Promise<void> => {
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify({ mcpflowStudioHistory: 1, runs: records }));
        await rename(temporary, file);
        this.problem = undefined;
      } catch (error) {
        this.report(
          `The history file ${file} could not be written (${(error as Error).message}); the runs stay in the studio until it stops.`,
        );
      }
    };
    this.saving = (this.saving ?? Promise.resolve()).then(write);
    return this.saving;
  }

  private report(message: string): void {
    this.problem = message;
    this.options.warn?.(message);
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`The studio's ${name} must be a whole number of at least 1, not ${value}.`);
  return value;
}

/** The records of a history file's text, or what is wrong with it. */
function parsedHistory(text: string): RunRecord[] | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const runs = (json as { mcpflowStudioHistory?: unknown; runs?: unknown } | null)?.runs;
  if ((json as { mcpflowStudioHistory?: unknown } | null)?.mcpflowStudioHistory !== 1 || !Array.isArray(runs))
    return 'no { "mcpflowStudioHistory": 1, "runs": [...] }';
  for (const [index, record] of runs.entries()) {
    const summary = (record as RunRecord | null)?.summary;
    const good =
      typeof summary?.runId === 'string' &&
      typeof summary.workflow === 'string' &&
      ['prompt', 'tool', 'task'].includes(summary.face) &&
      typeof summary.startedAt === 'number' &&
      typeof summary.arguments === 'object' &&
      summary.arguments !== null &&
      Array.isArray((record as RunRecord).events) &&
      (record as RunRecord).events.every((event) => typeof event?.type === 'string');
    if (!good) return `run ${index} is not a run the studio wrote`;
  }
  return runs as RunRecord[];
}
