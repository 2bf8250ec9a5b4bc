/**
 * Refuses to measure two contenders that do not answer alike: a benchmark compares the cost of the
 * same trace built two ways, so `a` and `b` (prompt results) must hold the same messages.
 *
 * @example
 * assertSameTrace(await workflow.getPrompt(request), await baseline.getPrompt(request), 'the workflow and the baseline');
 */
export function assertSameTrace(a: { messages: unknown[] }, b: { messages: unknown[] }, what: string): void {
  if (JSON.stringify(a.messages) !== JSON.stringify(b.messages)) throw new Error(`${what} do not build the same trace`);
}
