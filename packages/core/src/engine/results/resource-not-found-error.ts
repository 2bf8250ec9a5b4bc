/**
 * No registered resource or resource template serves the URI a step reads. Its message names no
 * URI (the step's reason adds the URI as the trace shows it); telemetry reports it as `resource not
 * found` with the URI template (DESIGN §2.11).
 */
export class ResourceNotFoundError extends Error {
  constructor() {
    super('no registered resource or resource template serves it');
    this.name = 'ResourceNotFoundError';
  }
}
