import type { SessionEventStore } from './session-event-store';

/** The bounds of {@link memoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** The most events kept; the oldest go first. Default `1000`. */
  maxEvents?: number;
  /** The most bytes of JSON kept; the oldest events go first. Default 1 MiB. */
  maxBytes?: number;
}

interface StoredEvent {
  readonly streamId: string;
  readonly message: unknown;
  readonly bytes: number;
}

/**
 * One session's SSE events in memory, bounded by count and bytes (the oldest go first), which is
 * `serveHttp`'s default for each 2025 session: a client that reconnects with `Last-Event-ID` gets
 * the events it missed, as long as they are still within the bounds; the store goes with its
 * session. Ids are `<stream>_<sequence>`, never reused within the session.
 *
 * @example
 * await serveHttp(factory, { eventStore: () => memoryEventStore({ maxEvents: 100 }) });
 */
export function memoryEventStore(options: MemoryEventStoreOptions = {}): SessionEventStore {
  const maxEvents = options.maxEvents ?? 1000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  // Insertion order is event order; the first entry is the oldest.
  const events = new Map<string, StoredEvent>();
  let bytes = 0;
  let sequence = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}_${++sequence}`;
      const size = JSON.stringify(message)?.length ?? 0;
      events.set(eventId, { streamId, message, bytes: size });
      bytes += size;
      for (const [oldestId, oldest] of events) {
        if (events.size <= maxEvents && bytes <= maxBytes) break;
        events.delete(oldestId);
        bytes -= oldest.bytes;
      }
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (!last) return '';
      let after = false;
      for (const [eventId, event] of [...events]) {
        if (after && event.streamId === last.streamId) await send(eventId, event.message as never);
        if (eventId === lastEventId) after = true;
      }
      return last.streamId;
    },
  };
}
