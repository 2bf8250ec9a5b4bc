/** The refusals a sessionful endpoint answers with, worded the same on both SDK lines. */
export const SessionMessages = {
  /** 404: the client should initialize a new session. */
  notFound: (id: string) => `Session not found: ${id} is unknown or was closed (idle or ended); initialize a new session`,
  /** 400: a GET or DELETE must name its session. */
  idRequired: 'Bad Request: Mcp-Session-Id header is required; POST an initialize request to open a session first',
  /** 503: the pool is full, and every session in it has a request in progress. */
  tooMany: (maxSessions: number) =>
    `Too many sessions: this server holds at most ${maxSessions} at once, all busy; retry later, or close sessions you no longer use (DELETE)`,
  /** 400: the body is not JSON. */
  parseError: 'Parse error: Invalid JSON',
  /** 413: the body is over `maxRequestBodySize`. */
  tooLarge: (maxBytes: number) => `Payload Too Large: the request body is over ${maxBytes} bytes (maxRequestBodySize)`,
} as const;
