// ESLint: JavaScript's and typescript-eslint's recommended rules; formatting is Prettier's job.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/', '**/.work/', 'docs/api/', 'bench/.generated/', 'bench/mastra/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  prettier,
  { languageOptions: { globals: globals.node } },
  {
    rules: {
      // `_` marks a parameter a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A lazy require() keeps an optional or heavy module (ts-jest, ts-patch, a compiler) off the load path.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true, allow: ['^typescript$', '^ts-patch$', '^ts-jest$'] }],
      // The few `any`s are deliberate (a type every input accepts) and commented; strict mode catches implicit ones.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Tests load compiled fixtures and examples by computed path.
    files: ['tests/**', 'packages/*/test/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The benchmark drives Mastra through an untyped loader.
    files: ['bench/**'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    // Must-fail fixtures import more than they use: their `// @expect line:col` marks depend on the lines staying put.
    files: ['packages/transformer/test/fixtures/**'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
);
