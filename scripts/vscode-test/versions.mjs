// The VS Code versions the harness runs (versions.json, newest first) and where each is cached.
// `MULTI_EDIT_VSCODE` picks them: `newest` (the default), `minimum`, `all`, or VS Code versions,
// comma-separated. As a script, prints "<vscode> <code-server> <node major>" per selected version
// for install.sh.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');
const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');

/** @type {{ name: string, vscode: string, codeServer: string, node: string, smokeTestDriverOption: boolean }[]} */
export const VSCODE_VERSIONS = JSON.parse(fs.readFileSync(path.join(HERE, 'versions.json'), 'utf8'));

/** The versions a selector names (see the header); throws on a name that is not in versions.json. */
export function selectVersions(selector = process.env.MULTI_EDIT_VSCODE || 'newest') {
  if (selector === 'all') return VSCODE_VERSIONS;
  return selector.split(',').map((wanted) => {
    const version = VSCODE_VERSIONS.find((candidate) => candidate.name === wanted || candidate.vscode === wanted);
    if (!version) {
      const known = VSCODE_VERSIONS.map((candidate) => `${candidate.name} (${candidate.vscode})`).join(', ');
      throw new Error(`unknown VS Code version "${wanted}"; scripts/vscode-test/versions.json has ${known}, or "all"`);
    }
    return version;
  });
}

/** The one version a run uses; a run never spans several. */
export function selectVersion(selector) {
  const versions = selectVersions(selector);
  if (versions.length !== 1) throw new Error(`a run uses one VS Code version; "${selector}" names ${versions.length}`);
  return versions[0];
}

export function codeServerDir(version) {
  return path.join(CACHE_DIR, `code-server-${version.codeServer}`);
}

/** The npm package that carries this platform's Node binary (install.sh installs it). */
export const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/** The Node that runs this code-server: this process's when the majors agree, else the cached one. */
export function nodeBinary(version) {
  if (process.versions.node.split('.')[0] === version.node) return process.execPath;
  return path.join(CACHE_DIR, `node-${version.node}`, 'node_modules', NODE_PACKAGE, 'bin', 'node');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    for (const version of selectVersions(process.argv[2])) {
      console.log(`${version.vscode} ${version.codeServer} ${version.node}`);
    }
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
}
