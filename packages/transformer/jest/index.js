// The ts-jest transformer of jest-preset.js: ts-jest with the type checks always on and mcpflow's
// checks added. Written in plain JavaScript so jest can load it without building anything.
module.exports = require('../dist/jest/create-transformer.js');
