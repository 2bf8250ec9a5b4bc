/** A JSON-RPC request as a protocol object receives it, before any SDK parsing. */
interface RawRequest {
  readonly id: unknown;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** The one method of an SDK's protocol object this reads requests through (both lines name it so). */
export interface RawRequestReceiver {
  _onrequest(request: RawRequest, extra: unknown): void;
}

/**
 * An SDK may lift a request's `inputResponses` out of its params, turning one that is not an object
 * into `{}` and losing a `__proto__` key. For `tasks/update`, such an `inputResponses` is kept as
 * sent (by request id, on this connection) and handed to the kit in the params, to be refused or
 * listed by name. Returns what puts it back into a handler's params (`requestId`: the handler's
 * request id); an ordinary `inputResponses` is never kept.
 */
export function keepUnliftedInput(
  protocol: RawRequestReceiver,
): (params: Record<string, unknown>, requestId: unknown) => Record<string, unknown> {
  const kept = new Map<unknown, unknown>();
  const onrequest = protocol._onrequest.bind(protocol);
  protocol._onrequest = (request, extra) => {
    const given = request.params?.inputResponses;
    const plain = typeof given === 'object' && given !== null && !Array.isArray(given) && !Object.hasOwn(given, '__proto__');
    if (request.method === 'tasks/update' && given !== undefined && !plain) kept.set(request.id, given);
    onrequest(request, extra);
  };
  return (params, requestId) => {
    if (!kept.has(requestId)) return params;
    const inputResponses = kept.get(requestId);
    kept.delete(requestId);
    return { ...params, inputResponses };
  };
}

/**
 * The answers an SDK lifted out of a request (`inputResponses`), with each entry it dropped as not
 * answer-shaped (`droppedKeys`) put back as `null`, so the kit can name it; `undefined` when the
 * request brought none.
 */
export function liftedInput(
  inputResponses: object | undefined,
  droppedKeys: readonly string[] | undefined,
): Readonly<Record<string, unknown>> | undefined {
  if (inputResponses === undefined) return undefined;
  return { ...inputResponses, ...Object.fromEntries((droppedKeys ?? []).map((key) => [key, null])) };
}
