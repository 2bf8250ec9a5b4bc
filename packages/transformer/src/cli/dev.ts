import type { Output } from './output';

/** How to call `mcpflow dev`. */
export const DEV_USAGE =
  'mcpflow dev --command "<server command>" | --url <Streamable HTTP URL> [--header "<Name: value>"]... [--port <n>] [--host <address> [--allow-remote]] [--history <file>] [--history-runs <n>] [--history-bytes <n>]';

const DEV_HELP = `Usage: ${DEV_USAGE}

Opens the studio (the package @mcpflow/studio): a local page, as a client of your server, that draws
each workflow, runs it from a form, answers its questions and shows a timeline.

  --command "<cmd>"  the server to start over stdio (its words split as a shell would, no shell run)
  --url <url>        the server's Streamable HTTP endpoint (credentials in it are never printed;
                     user:password@ is sent as Basic auth); the studio reconnects while it runs
  --header "N: v"    a header sent with every request to --url (repeat for more)
  --port <n>         the page's port (default: a free one)
  --host <address>   the page's address (default 127.0.0.1)
  --allow-remote     allow a --host that is not loopback: anyone who reaches it with the token drives your server
  --history <file>   keep the runs in this file across studio restarts (default: only while the studio runs)
  --history-runs <n> keep at most n runs, the oldest evicted first (default 200)
  --history-bytes <n> keep at most n bytes of runs (what they hold in memory), the oldest evicted first (default 33554432, 32 MiB)

The first stdout line is the page's URL with its token; then a line each time the connection changes.`;

/** What `mcpflow dev` uses of `@mcpflow/studio` (loaded only when `dev` runs: the package is optional). */
interface StudioModule {
  startStudio(options: {
    command?: string;
    url?: string;
    headers?: Record<string, string>;
    port?: number;
    host?: string;
    allowRemote?: boolean;
    history?: string;
    historyRuns?: number;
    historyBytes?: number;
    onConnection?: (connection: { state: string; error?: string }) => void;
  }): Promise<{ readonly url: string; close(): Promise<void> }>;
}

/** The package `dev` hands off to; a name in a variable, so the CLI builds and runs without it. */
const STUDIO_PACKAGE = '@mcpflow/studio';

/**
 * `mcpflow dev …`: parses its flags and hands off to `@mcpflow/studio` (DESIGN §2.15). Its first
 * stdout line is `mcpflow studio: http://127.0.0.1:<port>/?token=<token>`; then a line each time
 * the connection to the server changes state. Resolves with the exit code of a usage or install
 * error; a running studio keeps the process alive until it is stopped (Ctrl-C).
 */
export async function devCommand(argv: readonly string[], stdout: Output, stderr: Output): Promise<number> {
  const options: Parameters<StudioModule['startStudio']>[0] = {};
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (flag === '--help' || flag === '-h') {
      stdout.write(`${DEV_HELP}\n`);
      return 0;
    }
    if (flag === '--allow-remote') {
      options.allowRemote = true;
      continue;
    }
    if (value === undefined) return usageError(`${flag} needs a value`, stderr);
    index += 1;
    if (flag === '--command' && options.command === undefined) options.command = value;
    else if (flag === '--url' && options.url === undefined) options.url = value;
    else if (flag === '--host' && options.host === undefined) options.host = value;
    else if (flag === '--history' && options.history === undefined) options.history = value;
    else if (flag === '--history-runs' && options.historyRuns === undefined && /^[1-9]\d{0,8}$/.test(value))
      options.historyRuns = Number(value);
    else if (flag === '--history-bytes' && options.historyBytes === undefined && /^[1-9]\d{0,14}$/.test(value))
      options.historyBytes = Number(value);
    else if (flag === '--header' && /^[!#$%&'*+.^\w`|~-]+:/.test(value)) {
      const colon = value.indexOf(':');
      options.headers = { ...options.headers, [value.slice(0, colon).trim()]: value.slice(colon + 1).trim() };
    } else if (flag === '--port' && options.port === undefined && /^\d+$/.test(value) && Number(value) <= 65535)
      options.port = Number(value);
    else return usageError(`unexpected argument '${flag} ${value}'`, stderr);
  }
  if ((options.command === undefined) === (options.url === undefined)) return usageError('give one --command or one --url', stderr);
  if (options.headers !== undefined && options.url === undefined) return usageError('--header goes with --url', stderr);
  let studio: StudioModule;
  try {
    studio = (await import(STUDIO_PACKAGE)) as StudioModule;
  } catch (error) {
    const missing =
      (error as { code?: string }).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${STUDIO_PACKAGE}'`);
    if (!missing) throw error;
    stderr.write(
      `mcpflow dev: the studio is a package of its own: install it with npm i -D @mcpflow/studio, then run mcpflow dev again.\n`,
    );
    return 1;
  }
  let started = false;
  const said: string[] = [];
  let running: Awaited<ReturnType<StudioModule['startStudio']>>;
  try {
    running = await startOrSay(studio, options, (line) => {
      if (started) stdout.write(line);
      else said.push(line);
    });
  } catch (error) {
    stderr.write(`mcpflow dev: ${(error as Error).message}\n`);
    return 1;
  }
  stdout.write(`mcpflow studio: ${running.url}\n`);
  for (const line of said) stdout.write(line);
  started = true;
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  return 0;
}

/** Starts the studio, each change of its connection said as a line. */
function startOrSay(
  studio: StudioModule,
  options: Parameters<StudioModule['startStudio']>[0],
  say: (line: string) => void,
): ReturnType<StudioModule['startStudio']> {
  return studio.startStudio({
    ...options,
    onConnection: (connection) => say(`mcpflow studio: server ${connection.state}${connection.error ? `: ${connection.error}` : ''}\n`),
  });
}

function usageError(problem: string, stderr: Output): number {
  stderr.write(`mcpflow dev: ${problem}.\nUsage: ${DEV_USAGE}\n`);
  return 2;
}
