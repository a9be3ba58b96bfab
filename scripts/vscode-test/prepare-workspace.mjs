// Makes the folder given as the argument a fresh copy of demo/workspace (for the F5 test launch).
import path from 'node:path';
import { REPO_ROOT, copyDemoWorkspace } from './codeServer.mjs';

const dest = process.argv[2];
if (!dest) {
  console.error('usage: node scripts/vscode-test/prepare-workspace.mjs <folder>');
  process.exit(2);
}
copyDemoWorkspace(path.resolve(REPO_ROOT, dest));
