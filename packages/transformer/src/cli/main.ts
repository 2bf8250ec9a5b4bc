#!/usr/bin/env node
import { runCli } from './run-cli';

process.exitCode = runCli(process.argv.slice(2), process.stdout, process.stderr);
