/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: '<rootDir>/tsconfig.test.json',
        // The patched compiler runs mcpflow's program transformer: a test with broken wiring fails to compile.
        compiler: 'ts-patch/compiler',
        // Except the run-time rule tests, whose workflows are broken on purpose to test what use() throws,
        // tests whose workflows are built at run time from values a test generates, and a step kind only
        // a test knows (the compiler reads the built tables, without it: CONTRIBUTING.md).
        diagnostics: {
          exclude: [
            '**/packages/core/test/rules.test.ts',
            '**/packages/core/test/flow-rules.test.ts',
            // A previous class of another workflow's name: what use() says of it (TS91070 at compile time).
            '**/packages/core/test/versions/renamed-previous.ts',
            '**/tests/hardening/dynamic/**',
            '**/tests/step-kinds/**',
          ],
        },
      },
    ],
  },
  // Tests run against the sources, so a change is tested without a rebuild.
  moduleNameMapper: {
    '^@mcpflow/core/(model|rules|v1|v2)$': '<rootDir>/packages/core/src/$1',
    '^@mcpflow/(core|decorators|testing|studio|client)$': '<rootDir>/packages/$1/src',
  },
  testTimeout: 30000,
  // The studio's browser tests (tests/studio/browser) drive chromium: 120 s each.
  setupFilesAfterEnv: ['<rootDir>/tests/studio/browser/timeout.ts'],
};
