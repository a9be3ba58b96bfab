// Lint: typescript-eslint recommended, plus the rule that keeps src/core pure.
import tseslint from 'typescript-eslint';

/** Outside src/core, the core is reached only through its public surface, src/core/index.ts. */
const coreThroughIndex = {
  group: ['**/core/*', '**/core/**/*', '!**/core/index'],
  message: 'Import the core through src/core/index.ts, its public surface.',
};

/**
 * The rooms of src/vscode and what each may import, bottom up: platform/ (ids, settings, paths,
 * the workspace store) imports no other room; run/ (the runner, its bus and log) sits on
 * platform/; the features sit on those; extension.ts, which wires them, imports everything and
 * nothing imports it.
 */
const VSCODE_LAYERS = {
  platform: [],
  run: ['platform'],
  preview: ['run', 'platform'],
  problems: ['run', 'platform'],
  requestFiles: ['problems', 'run', 'platform'],
  commands: ['preview', 'problems', 'requestFiles', 'run', 'platform'],
  chat: ['commands', 'preview', 'problems', 'tools', 'run', 'platform'],
  tools: ['run', 'platform'],
  status: ['run', 'platform'],
  walkthrough: ['run', 'platform'],
};

/** The import patterns src/vscode forbids, and for a room, the rooms above or beside it as well. */
function vscodeImportRules(folder) {
  const adapters = { group: ['**/node/**', '../node', '../../node'], message: 'src/vscode may import src/core, not src/node.' };
  if (folder === undefined) {
    return [coreThroughIndex, adapters];
  }
  const allowed = VSCODE_LAYERS[folder];
  const forbidden = Object.keys(VSCODE_LAYERS).filter((other) => other !== folder && !allowed.includes(other));
  return [
    coreThroughIndex,
    adapters,
    {
      regex: `^(\\.\\./)+(${forbidden.join('|')}|extension)(/|$)`,
      message: `src/vscode/${folder} may import ${allowed.length > 0 ? allowed.join(', ') : 'no other room of src/vscode'} (see VSCODE_LAYERS).`,
    },
  ];
}

/**
 * src/node: host/ builds the engine's options and owns the store, the scope, the turns and the
 * loop breaker for every Node command; cli/ and mcp/ are transports over it. So a transport
 * imports neither the store nor what makes or runs the engine's options: a command cannot run
 * the engine with a path check and no confinement behind it.
 */
const NODE_TRANSPORTS = ['cli', 'mcp'];
const NODE_HOST_ONLY = {
  engine: ['runRequest', 'runRequestWithDiffPieces', 'runParsedRequest', 'runParsedRequestWithDiffPieces', 'planRequest', 'commitPlan', 'surfaceOptions', 'EngineOptions', 'RepeatedFailures'],
  pathPolicy: ['createPathCheck', 'refusalForRealPath'],
};

function nodeImportRules(folder) {
  const message = `src/node/${folder} is a transport: it runs requests through host/ (NodeHost), which builds the engine's options and the store (see docs/architecture.md).`;
  return {
    paths: [{ name: 'vscode', message: 'src/node runs outside VS Code.' }],
    patterns: [
      coreThroughIndex,
      { group: ['**/vscode/*', '../vscode'], message: 'src/node may import src/core, not src/vscode.' },
      { group: ['**/store', '**/store/**', '**/shared/syntax/**'], message },
      { group: ['**/core', '**/core/index'], importNames: NODE_HOST_ONLY.engine, message },
      { group: ['**/shared/pathPolicy'], importNames: NODE_HOST_ONLY.pathPolicy, message },
    ],
  };
}

/** What src/core may not import: adapters, vscode, the file system; `extra` adds a folder's own limits. */
function coreImportRules(extra) {
  return {
    paths: [
      { name: 'vscode', message: 'src/core is pure: no vscode import.' },
      { name: 'fs', message: 'src/core is pure: no fs import.' },
      { name: 'fs/promises', message: 'src/core is pure: no fs import.' },
    ],
    patterns: [
      { group: ['node:*'], message: 'src/core is pure: no Node built-ins.' },
      { group: ['**/node/**', '**/vscode/**', '../node', '../vscode'], message: 'Dependencies point inward: core imports no adapter.' },
      ...extra,
    ],
  };
}

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
    rules: { 'no-restricted-imports': ['error', coreImportRules([])] },
  },
  {
    // engine/ sits on top of the core and runs the rest: the other folders take nothing from it.
    files: ['src/core/*/**/*.ts'],
    ignores: ['src/core/engine/**'],
    rules: {
      'no-restricted-imports': ['error', coreImportRules([
        { regex: '^\\.\\./engine(/|$)', message: 'Core folders take their types from below, never from engine/ (see docs/architecture.md).' },
      ])],
    },
  },
  {
    // The adapters depend on the core only, never on each other.
    files: ['src/vscode/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: vscodeImportRules() }] },
  },
  // Inside src/vscode, each folder imports only the folders below it (see VSCODE_LAYERS).
  ...Object.keys(VSCODE_LAYERS).map((folder) => ({
    files: [`src/vscode/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: vscodeImportRules(folder) }] },
  })),
  {
    // Node-side rules that both adapters share: they import the core, never an adapter.
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/shared runs outside VS Code too.' }], patterns: [coreThroughIndex, { group: ['**/node/**', '**/vscode/*', '../node', '../vscode'], message: 'src/shared may import src/core only.' }] }] },
  },
  {
    files: ['src/node/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/node runs outside VS Code.' }], patterns: [coreThroughIndex, { group: ['**/vscode/*', '../vscode'], message: 'src/node may import src/core, not src/vscode.' }] }] },
  },
  ...NODE_TRANSPORTS.map((folder) => ({
    files: [`src/node/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', nodeImportRules(folder)] },
  })),
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [coreThroughIndex] }] },
  },
);
