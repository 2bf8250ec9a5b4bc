/**
 * `node --import ./register-fs-glob-sync.mjs …`: lets @modelcontextprotocol/conformance, which
 * imports `globSync` from `fs` by name, start on node 20. A `--require` preload cannot do it:
 * node fixes a builtin's ESM export names before user code runs.
 */
import { register } from 'node:module';

register('./fs-glob-sync-hooks.mjs', import.meta.url);
