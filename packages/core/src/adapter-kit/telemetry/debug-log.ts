/**
 * Where a WorkflowServer's debug lines go (the `logger` server option): a function that takes each
 * line, or an object with a `debug(line)` method — `console`, a pino or winston logger. Each line
 * is one event of a run (start, step, ask, pause, resume, end), starts with `mcpflow `, and holds
 * names, statuses, counts and durations only, never a value.
 *
 * @example
 * ```ts
 * new WorkflowServer(info, { logger: (line) => myLog.debug(line) });
 * new WorkflowServer(info, { logger: console }); // console.debug
 * ```
 */
export type WorkflowLogger = ((line: string) => void) | { debug(line: string): void };

/** The namespace `DEBUG` names to turn mcpflow's lines on. */
const NAMESPACE = 'mcpflow';

/**
 * Where this server's debug lines go: its `logger`, else stderr when the `DEBUG` environment
 * variable names mcpflow as the `debug` package reads it (`mcpflow`, `mcpflow*`, `*`; a
 * comma- or space-separated list; a `-` before a pattern excludes), else nowhere.
 *
 * @example
 * ```ts
 * debugLine(undefined, 'express:*,mcpflow'); // writes `mcpflow …` lines to stderr
 * ```
 */
export function debugLine(logger: WorkflowLogger | undefined, debug: string | undefined): ((line: string) => void) | undefined {
  if (typeof logger === 'function') return logger;
  if (logger) return (line) => logger.debug(line);
  if (!debug || !debugNames(debug, NAMESPACE)) return undefined;
  return (line) => process.stderr.write(`${line}\n`);
}

/** Whether a `DEBUG` value turns `namespace` on: some pattern matches it and no excluding one does. */
function debugNames(debug: string, namespace: string): boolean {
  let on = false;
  for (const pattern of debug.split(/[\s,]+/).filter(Boolean)) {
    const excluded = pattern.startsWith('-');
    if (!matches(excluded ? pattern.slice(1) : pattern, namespace)) continue;
    if (excluded) return false;
    on = true;
  }
  return on;
}

function matches(pattern: string, namespace: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(namespace);
}
