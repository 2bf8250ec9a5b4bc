/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] },
  // Tests run against the sources, so a change is tested without a rebuild.
  moduleNameMapper: {
    '^@mcpflow/core/(model|rules)$': '<rootDir>/packages/core/src/$1',
    '^@mcpflow/(core|decorators)$': '<rootDir>/packages/$1/src',
  },
  testTimeout: 30000,
};
