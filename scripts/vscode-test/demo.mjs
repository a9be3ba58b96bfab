// `npm run demo`: serves VS Code (code-server) on 127.0.0.1 with Multi-Edit loaded on a fresh copy
// of demo/workspace, prints the URL to open, and runs until Ctrl+C. DEMO_PORT picks the port;
// MULTI_EDIT_VSCODE the VS Code version (default: the newest of versions.json).
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, REPO_ROOT, createSandbox, startCodeServer, stopOnSignals } from './codeServer.mjs';
import { installMultiEdit } from './extensions.mjs';
import { selectVersion } from './versions.mjs';

const DEMO_ROOT = path.join(CACHE_DIR, 'demo');
const port = process.env.DEMO_PORT ? Number(process.env.DEMO_PORT) : undefined;
const version = selectVersion();

// Reset on every start, so each demo begins from the pristine demo workspace.
const sandbox = createSandbox(DEMO_ROOT);
// The demo requests sit inside the workspace, so a person can open one and run Apply or Preview on it.
fs.cpSync(path.join(REPO_ROOT, 'demo', 'requests'), path.join(sandbox.workspace, 'requests'), { recursive: true });
// Installed from this checkout (not loaded through the URL's payload, which newer builds honour
// only in a test mode that hides notifications).
installMultiEdit(sandbox);
const server = await startCodeServer(sandbox, version, { port });
let stopping = false;
stopOnSignals(async () => {
  stopping = true;
  await server.stop();
});

const url = server.workbenchUrl(sandbox.workspace);
console.log(`
Multi-Edit demo: VS Code ${version.vscode} (code-server ${version.codeServer}) with the extension loaded
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
