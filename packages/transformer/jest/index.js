// The ts-jest transformer of jest-preset.js: ts-jest with the type checks always on and mcpflow's
// checks added. A plain object, not the compiled module itself: jest would take that module's
// (absent) `default` export because it is marked __esModule.
const { createTransformer } = require('../dist/jest/create-transformer.js');

module.exports = { createTransformer };
