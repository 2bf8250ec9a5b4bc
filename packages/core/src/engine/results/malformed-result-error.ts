/**
 * A tool or resource handler returned something `tools/call` or `resources/read` could not send:
 * a malformed content block, or a value JSON cannot hold (a BigInt, a cycle). Its message names the
 * tool or resource and the exact field, and becomes the failed step's reason.
 */
export class MalformedResultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedResultError';
  }
}
