// `npm run demo`: installs the .vsix that `npm run package` made into VS Code (code-server), as a
// person installs it, serves it on 127.0.0.1 on a fresh copy of demo/workspace, prints the URL to
// open, and runs until Ctrl+C. DEMO_PORT picks the port; MULTI_EDIT_VSCODE the VS Code version
// (default: the newest of versions.json).
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, REPO_ROOT, createSandbox, installExtension, startCodeServer, stopOnSignals } from './codeServer.mjs';
import { selectVersion } from './versions.mjs';

const DEMO_ROOT = path.join(CACHE_DIR, 'demo');
const port = process.env.DEMO_PORT ? Number(process.env.DEMO_PORT) : undefined;
const version = selectVersion();
const { name, version: packageVersion } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const vsix = path.join(REPO_ROOT, `${name}-${packageVersion}.vsix`); // where `npm run package` puts it
if (!fs.existsSync(vsix)) {
  console.error(`${path.basename(vsix)} is missing: run \`npm run package\` first (\`npm run demo\` does).`);
  process.exit(1);
}

// Reset on every start, so each demo begins from the pristine demo workspace.
const sandbox = createSandbox(DEMO_ROOT);
// The demo requests sit inside the workspace, so a person can open one and run Apply or Preview on it.
fs.cpSync(path.join(REPO_ROOT, 'demo', 'requests'), path.join(sandbox.workspace, 'requests'), { recursive: true });
await installExtension(sandbox, version, vsix);
const server = await startCodeServer(sandbox, version, { port });
let stopping = false;
stopOnSignals(async () => {
  stopping = true;
  await server.stop();
});

const url = server.workbenchUrl(sandbox.workspace);
console.log(`
Multi-Edit demo: VS Code ${version.vscode} (code-server ${version.codeServer}) with ${path.basename(vsix)} installed
  workspace  ${path.relative(REPO_ROOT, sandbox.workspace)}  (a copy of demo/workspace plus demo/requests in requests/, reset on every start)
  log        ${path.relative(REPO_ROOT, sandbox.codeServerLog)}

Open this URL in a browser on this machine:

  ${url}

Press Ctrl+C to stop.`);

const exitCode = await server.exited;
if (!stopping) {
  console.error(`code-server stopped unexpectedly (exit code ${exitCode}); see ${sandbox.codeServerLog}`);
  process.exit(1);
}
