/** `node:fs` with `globSync`, what the conformance suite's `import { globSync } from 'fs'` gets on node 20. */
import fs from 'node:fs';
import { globSync as globSyncShim } from './glob-sync.mjs';

export * from 'node:fs';
export const globSync = fs.globSync ?? globSyncShim;
export default fs;
