// The page's one event stream (`GET /api/events`): every run's events over a single connection, so
// any number of unfinished runs costs one of the browser's six connections to the studio, not one
// each. A run view follows its run: what the run already emitted (`GET /api/runs/:runId/log`), then
// the live events, each once (events carry their number in the run).
import { api } from './api';
import type { RunSummary } from './types';

type Handler = (type: string, data: any) => void;

const EVENT_TYPES = ['progress', 'step', 'question', 'question-closed', 'task', 'result', 'error'];

interface Follower {
  handle: Handler;
  /** The next event number to hand on (an event below it was handed on already). */
  next: number;
  /** While the log is read (or the stream is not open yet), live events wait here. */
  paused: boolean;
  reading: boolean;
  waiting: { seq: number; type: string; data: unknown }[];
}

const followers = new Map<string, Set<Follower>>();
const summaryListeners = new Set<(summary: RunSummary) => void>();
const openListeners = new Set<() => void>();
/** Who hears that a run's raw messages changed, by run id. */
const messageListeners = new Map<string, Set<() => void>>();
let source: EventSource | undefined;

function deliver(follower: Follower, seq: number, type: string, data: unknown): void {
  if (follower.paused) return void follower.waiting.push({ seq, type, data });
  if (seq < follower.next) return;
  follower.next = seq + 1;
  follower.handle(type, data);
}

function stream(): EventSource {
  if (source) return source;
  source = new EventSource(api.eventsUrl());
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event) => {
      const raw = (event as MessageEvent<string>).data;
      // EventSource's own `error` (the connection dropped; it reconnects) has no data.
      if (!raw) return;
      const { runId, seq, data } = JSON.parse(raw) as { runId: string; seq: number; data: unknown };
      for (const follower of followers.get(runId) ?? []) deliver(follower, seq, type, data);
    });
  }
  source.addEventListener('run', (event) => {
    const summary = JSON.parse((event as MessageEvent<string>).data) as RunSummary;
    for (const listener of summaryListeners) listener(summary);
  });
  source.addEventListener('messages', (event) => {
    const { runId } = JSON.parse((event as MessageEvent<string>).data) as { runId: string };
    for (const listener of messageListeners.get(runId) ?? []) listener();
  });
  // Each (re)connect: what was missed is read again (the runs list; each followed run's log).
  source.addEventListener('open', () => {
    for (const listener of openListeners) listener();
    for (const [runId, set] of followers) for (const follower of set) void readLog(runId, follower);
  });
  return source;
}

async function readLog(runId: string, follower: Follower): Promise<void> {
  if (follower.reading) return;
  follower.reading = follower.paused = true;
  const events = await api.log(runId).then(
    (log) => log.events,
    // The run was evicted (or the studio is gone): nothing more will come for it.
    () => [],
  );
  follower.paused = follower.reading = false;
  events.forEach((event, seq) => deliver(follower, seq, event.type, event.data));
  for (const event of follower.waiting.splice(0)) deliver(follower, event.seq, event.type, event.data);
}

/** Follows run `runId`: `handle` hears each of its events once, from the first; returns the unfollow. */
export function followRun(runId: string, handle: Handler): () => void {
  const follower: Follower = { handle, next: 0, paused: true, reading: false, waiting: [] };
  const set = followers.get(runId) ?? new Set();
  followers.set(runId, set.add(follower));
  // Not open yet: the stream's `open` reads the log.
  if (stream().readyState === EventSource.OPEN) void readLog(runId, follower);
  return () => set.delete(follower);
}

/** Hears each run's summary when it starts, asks, changes status or ends; `opened` each time the stream (re)connects. */
export function watchRuns(listener: (summary: RunSummary) => void, opened: () => void): void {
  summaryListeners.add(listener);
  openListeners.add(opened);
  if (stream().readyState === EventSource.OPEN) opened();
}

/**
 * Hears each time run `runId` has a new raw JSON-RPC message (read them with
 * `GET /api/runs/:runId/messages`), and each time the stream (re)connects (one may have been
 * missed); returns the unwatch.
 */
export function watchMessages(runId: string, listener: () => void): () => void {
  const set = messageListeners.get(runId) ?? new Set();
  messageListeners.set(runId, set.add(listener));
  const source = stream();
  source.addEventListener('open', listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) messageListeners.delete(runId);
    source.removeEventListener('open', listener);
  };
}
