// Bundles the extension (cjs, vscode external), the CLI (node, with a shebang) and the CLI's MCP server.
import * as esbuild from 'esbuild';
import { chmodSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

const builds = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/node/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The MCP server and its SDK, loaded by dist/cli.js only for `multi-edit mcp` (src/node/mcpLauncher.ts).
  { ...common, entryPoints: ['src/node/mcp/server.ts'], outfile: 'dist/mcp.js' },
];

// Lines the watch task's problem matcher waits for: each rebuild starts and ends visibly.
const watchReporter = {
  name: 'watch-reporter',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => console.log(`[watch] build finished with ${result.errors.length} error(s)`));
  },
};

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context({ ...options, plugins: [watchReporter] });
    await context.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  chmodSync('dist/cli.js', 0o755); // runnable as ./dist/cli.js, like the installed bin
}
