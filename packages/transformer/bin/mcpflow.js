#!/usr/bin/env node
// A committed launcher, so npm can link the `mcpflow` bin before the package is built (as in `npm ci` in this repo).
require('../dist/cli/main.js');
