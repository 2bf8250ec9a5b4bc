#!/usr/bin/env node
import { preflightCommand } from './preflight';

const [command, ...rest] = process.argv.slice(2);
// Before every build: answered without loading TypeScript (the rest of the CLI does, at its start).
if (command === 'preflight') process.exitCode = preflightCommand(rest, process.cwd(), process.stderr);
else
  import('./run-cli')
    .then(({ runCli }) => runCli(process.argv.slice(2), process.stdout, process.stderr))
    .then(
      (exit) => (process.exitCode = exit),
      (error: unknown) => {
        process.stderr.write(`mcpflow: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      },
    );
