/**
 * What a 2025 session keeps of its SSE events so that a client reconnecting with `Last-Event-ID`
 * gets what it missed: the SDK's `EventStore` interface (the same on both lines), written here
 * without an SDK type so the kit stays SDK-free. Any store of either SDK fits.
 *
 * @example
 * await serveHttp(factory, { eventStore: () => memoryEventStore({ maxBytes: 256 * 1024 }) });
 */
export interface SessionEventStore {
  /** Keeps `message`, sent on stream `streamId`, and returns the id its SSE event carries. */
  storeEvent(streamId: string, message: unknown): Promise<string>;
  /** The stream an event id belongs to, if the store still has it. */
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /** Sends again, in order, the events of `lastEventId`'s stream that came after it; returns that stream's id. */
  replayEventsAfter(lastEventId: string, target: { send: (eventId: string, message: never) => Promise<void> }): Promise<string>;
}
