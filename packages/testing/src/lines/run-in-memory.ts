import type { FaceClient } from './face-request';
import { faceResult, requestFace } from './face-request';
import type { LineResult, LineRun } from './line-run';

/** What a run needs of either line's `Client`, linked to the server in memory. */
interface InMemoryClient<T> extends FaceClient {
  connect(transport: T): Promise<void>;
  close(): Promise<void>;
}

/** What a run needs of either line's server. */
interface InMemoryServer<T> {
  connect(transport: T): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects a line's client and server over a linked in-memory pair, runs the workflow through its
 * face (`prompts/get` or `tools/call`) with the run's arguments, and closes both: the whole of a
 * run on a 2025 session.
 */
export async function runInMemory<C, S>(
  client: InMemoryClient<C>,
  server: InMemoryServer<S>,
  [clientTransport, serverTransport]: readonly [C, S],
  run: LineRun,
  metaKey: string,
): Promise<LineResult> {
  await server.connect(serverTransport);
  try {
    await client.connect(clientTransport);
    return faceResult(await requestFace(client, run, {}), metaKey);
  } finally {
    await client.close();
    await server.close();
  }
}
