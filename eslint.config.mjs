// Lint: typescript-eslint recommended, plus the rule that keeps src/core pure.
import tseslint from 'typescript-eslint';

/** Outside src/core, the core is reached only through its public surface, src/core/index.ts. */
const coreThroughIndex = {
  group: ['**/core/*', '**/core/**/*', '!**/core/index'],
  message: 'Import the core through src/core/index.ts, its public surface.',
};

export default tseslint.config(
  // The recovery fixtures are sample files of other projects, not this project's code.
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-artifacts/**', 'bench/recovery/fixtures/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/core is pure: no vscode import.' },
          { name: 'fs', message: 'src/core is pure: no fs import.' },
          { name: 'fs/promises', message: 'src/core is pure: no fs import.' },
        ],
        patterns: [
          { group: ['node:*'], message: 'src/core is pure: no Node built-ins.' },
          { group: ['**/node/**', '**/vscode/**', '../node', '../vscode'], message: 'Dependencies point inward: core imports no adapter.' },
        ],
      }],
    },
  },
  {
    // The adapters depend on the core only, never on each other.
    files: ['src/vscode/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [coreThroughIndex, { group: ['**/node/**', '../node', '../../node'], message: 'src/vscode may import src/core, not src/node.' }] }] },
  },
  {
    // Node-side rules that both adapters share: they import the core, never an adapter.
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/shared runs outside VS Code too.' }], patterns: [coreThroughIndex, { group: ['**/node/**', '**/vscode/*', '../node', '../vscode'], message: 'src/shared may import src/core only.' }] }] },
  },
  {
    files: ['src/node/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/node runs outside VS Code.' }], patterns: [coreThroughIndex, { group: ['**/vscode/*', '../vscode'], message: 'src/node may import src/core, not src/vscode.' }] }] },
  },
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [coreThroughIndex] }] },
  },
);
