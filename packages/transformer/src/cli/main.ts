#!/usr/bin/env node
import { runCli } from './run-cli';

const code = runCli(process.argv.slice(2), process.stdout, process.stderr);
if (typeof code === 'number') process.exitCode = code;
else
  code.then(
    (exit) => (process.exitCode = exit),
    (error: unknown) => {
      process.stderr.write(`mcpflow: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
