/** A try that ran out of time. */
export class StepTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'StepTimeoutError';
  }
}

/** The request was cancelled while a try ran. */
export class StepCancelledError extends Error {
  constructor() {
    super('the request was cancelled');
    this.name = 'StepCancelledError';
  }
}
