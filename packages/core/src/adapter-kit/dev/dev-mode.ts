import { InvalidServerOptionError } from '../../engine';

/** The environment variable that turns dev mode on for every server of a process (`mcpflow dev --command` sets it for its child). */
const DEV_ENV = 'MCPFLOW_DEV';

/**
 * Whether a server runs in dev mode (DESIGN §2.15): its `dev` option when given, else
 * `MCPFLOW_DEV=1` in the environment. Only in dev mode does a server record its runs and answer
 * `mcpflow/rerun`. Throws `InvalidServerOptionError` for a `dev` that is not a boolean
 * (`dev: 'false'` would read as on).
 *
 * @example
 * ```ts
 * devMode(options.dev); // true for { dev: true }, or with MCPFLOW_DEV=1 and no dev option
 * ```
 */
export function devMode(option: unknown): boolean {
  if (option === undefined) return process.env[DEV_ENV] === '1';
  if (typeof option !== 'boolean')
    throw new InvalidServerOptionError(
      'dev',
      `must be true or false (got ${typeof option === 'string' ? JSON.stringify(option) : typeof option}).`,
    );
  return option;
}
