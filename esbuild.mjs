// Bundles the extension (cjs, vscode external), the CLI (node, with a shebang) and the CLI's MCP server.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, resolve } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow; its ES module build bundles whole.
  mainFields: ['module', 'main'],
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // jsonc-parser's main build is UMD, whose require() calls inside a factory a bundler cannot follow; its ES module build bundles whole.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

/**
 * Modules the CLI loads with import() only when a request needs them: each is a file
 * of its own in dist/, so `multi-edit apply` of a valid request never reads or
 * compiles them. schemaProblem holds zod, which explains an invalid request; the
 * syntax gate's parsers load only for an edited file of a language they know; the
 * encodings other than UTF-8 (iconv-lite's tables) only for a file that is not UTF-8.
 */
const cliLazyModules = ['src/core/request/schemaProblem.ts', 'src/core/engine/planNotebook.ts', 'src/shared/syntax/treeSitterErrors.ts', 'src/shared/syntax/jsonSyntaxErrors.ts', 'src/shared/syntax/notebookSyntaxErrors.ts', 'src/node/store/textCodecs.ts', 'src/shared/history/historyRecord.ts'];

/**
 * The tree-sitter runtime and the grammars the syntax gate uses, copied to dist/tree-sitter for
 * the CLI, the MCP server and the extension alike. The grammars are read from their one list,
 * TREE_SITTER_GRAMMARS in src/shared/syntax/syntaxLanguages.ts, bundled in memory and imported.
 */
async function gateGrammars() {
  const { outputFiles } = await esbuild.build({ entryPoints: ['src/shared/syntax/syntaxLanguages.ts'], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' });
  const module = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
  return module.TREE_SITTER_GRAMMARS;
}

async function copyTreeSitter() {
  // Emptied first, so a grammar taken off the list leaves the packages too.
  rmSync('dist/tree-sitter', { recursive: true, force: true });
  mkdirSync('dist/tree-sitter', { recursive: true });
  for (const name of ['tree-sitter', ...(await gateGrammars()).map((grammar) => `tree-sitter-${grammar}`)]) {
    copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/${name}.wasm`, `dist/tree-sitter/${name}.wasm`);
  }
}

/** The MCP server's bundle, which `multi-edit mcp` loads like a lazy module. */
const MCP_SERVER = { entry: 'src/node/mcp/server.ts', out: 'mcp.js' };

/** Where a lazy module's import() resolves: a one-line module that requires the file in dist/ when the import runs. */
const LAZY_REQUIRE = 'lazy-require';

/** Where an import() of a Node built-in resolves: a one-line module that requires it. */
const BUILTIN_REQUIRE = 'builtin-require';

/** The name of a lazy module's file in dist/. */
const lazyOutName = (entry) => `${basename(entry, '.ts')}.js`;

/**
 * Keeps the CLI's lazy modules out of its bundle, and lets it drop the zod schemas:
 * the core's index re-exports them, but the CLI uses none of them, and declaring
 * schemas.ts and history.ts free of side effects lets esbuild leave them (and zod) out.
 */
const cliLoading = {
  name: 'cli-loading',
  setup(build) {
    const lazy = new Map([...cliLazyModules.map((entry) => [entry, lazyOutName(entry)]), [MCP_SERVER.entry, MCP_SERVER.out]].map(([entry, out]) => [resolve(entry).replace(/\.ts$/, ''), out]));
    const schemaModules = new Set(['schemas', 'history'].map((name) => resolve(`src/core/contract/${name}`)));
    // A library's import() of a Node built-in (the tree-sitter runtime's `import("module")`) would start Node's
    // ES module loader, 10-15 ms of a cold run; a require() of the built-in gives the same module at once.
    build.onResolve({ filter: /^[\w:/]+$/ }, (args) => (args.kind === 'dynamic-import' && isBuiltin(args.path) ? { path: args.path, namespace: BUILTIN_REQUIRE } : undefined));
    build.onLoad({ filter: /.*/, namespace: BUILTIN_REQUIRE }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace === LAZY_REQUIRE) {
        return { path: args.path, external: true };
      }
      const target = resolve(args.resolveDir, args.path).replace(/\.(js|ts)$/, '');
      if (args.kind === 'dynamic-import' && lazy.has(target)) {
        return { path: `./${lazy.get(target)}`, namespace: LAZY_REQUIRE };
      }
      if (schemaModules.has(target)) {
        return { path: `${target}.ts`, sideEffects: false };
      }
      return undefined;
    });
    // import() of a CommonJS file goes through Node's ES module loader, which first lexes the whole
    // file for its export names (about 50 ms for the tree-sitter runtime, 200 ms of CPU for the MCP
    // server's bundle); require() loads it directly.
    build.onLoad({ filter: /.*/, namespace: LAZY_REQUIRE }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const builds = [
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow; its ES module build bundles whole.
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], mainFields: ['module', 'main'] },
  { ...common, entryPoints: ['src/node/cli/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [cliLoading] },
  // Each lazy module loads the same way: without the schemas it does not use, and its own lazy imports from their files.
  ...cliLazyModules.map((entry) => ({ ...common, entryPoints: [entry], outfile: `dist/${lazyOutName(entry)}`, plugins: [cliLoading] })),
  // The MCP server and its SDK, loaded by dist/cli.js only for `multi-edit mcp` (src/node/cli/mcpLauncher.ts).
  // It shares the CLI's lazy modules: bundling them in would wrap zod in lazy initialisers that the
  // SDK's own zod schemas run ahead of.
  { ...common, entryPoints: [MCP_SERVER.entry], outfile: `dist/${MCP_SERVER.out}`, plugins: [cliLoading] },
];

// Lines the watch task's problem matcher waits for: each rebuild starts and ends visibly.
const watchReporter = {
  name: 'watch-reporter',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => console.log(`[watch] build finished with ${result.errors.length} error(s)`));
  },
};

await copyTreeSitter();
if (watch) {
  for (const options of builds) {
    const context = await esbuild.context({ ...options, plugins: [...(options.plugins ?? []), watchReporter] });
    await context.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  chmodSync('dist/cli.js', 0o755); // runnable as ./dist/cli.js, like the installed bin
}
