// `preset: '@mcpflow/transformer/jest'` in jest.config: .ts tests compiled by ts-jest, type-checked
// (also under `isolatedModules: true`) and failing on a broken workflow.
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': require.resolve('./index.js') },
  // Lets `import { x } from './x.js'` (nodenext style) find ./x.ts.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
