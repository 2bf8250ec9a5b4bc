import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What the conformance suite found for one scenario. */
export interface ScenarioOutcome {
  scenario: string;
  passed: number;
  failed: number;
  /** The failed checks' messages. */
  failures: string[];
  /** Checks that neither passed nor failed (WARNING, SKIPPED, …), with their status. */
  other: string[];
}

/** A finished run of the suite's server scenarios. */
export interface ConformanceRun {
  exitCode: number | null;
  output: string;
  outcomes: ScenarioOutcome[];
}

const CLI = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const REGISTER_GLOB_SYNC = path.join(__dirname, 'register-fs-glob-sync.mjs');

/**
 * Runs `conformance server --url <url> …args` (node 20 needs the `fs.globSync` shim) and reads
 * every scenario's checks.json. Bounded: the run is killed after `timeoutMs`.
 */
export function runConformance(url: URL, args: string[], timeoutMs = 240_000): Promise<ConformanceRun> {
  const outputDir = mkdtempSync(path.join(tmpdir(), 'mcpflow-conformance-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', REGISTER_GLOB_SYNC, CLI, 'server', '--url', url.href, '-o', outputDir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      try {
        resolve({ exitCode, output, outcomes: readOutcomes(outputDir) });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(outputDir, { recursive: true, force: true });
      }
    });
  });
}

function readOutcomes(outputDir: string): ScenarioOutcome[] {
  const found: ScenarioOutcome[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name === 'checks.json') {
        const checks = JSON.parse(readFileSync(full, 'utf8')) as { status: string; name: string; errorMessage?: string }[];
        const failures = checks.filter((check) => check.status === 'FAILURE');
        found.push({
          scenario: path.relative(outputDir, folder),
          passed: checks.filter((check) => check.status === 'SUCCESS').length,
          failed: failures.length,
          failures: failures.map((check) => `${check.name}: ${check.errorMessage ?? ''}`),
          other: checks
            .filter((check) => !['SUCCESS', 'FAILURE', 'INFO'].includes(check.status))
            .map((check) => `${check.status} ${check.name}: ${check.errorMessage ?? ''}`),
        });
      }
    }
  };
  visit(outputDir);
  return found.sort((a, b) => a.scenario.localeCompare(b.scenario));
}
