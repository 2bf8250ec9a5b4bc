// tsserver loads plugins by a plain node_modules lookup that ignores package.json "exports", so
// `{ "name": "@mcpflow/transformer/language-service" }` needs this real folder.
module.exports = require('../dist/language-service-plugin.js');
