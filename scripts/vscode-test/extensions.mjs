// Extensions installed into a sandbox's extensions folder before code-server starts, named
// <publisher>.<name>-<version> as the gallery names them: Multi-Edit itself, for runs that do not
// load it through the workbench payload, and the test-only extensions, which the payload cannot
// load (it takes one extension under development).
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './codeServer.mjs';

/** The scripted language model (test/scriptedModel), compiled by `npm run compile-tests`. */
const SCRIPTED_MODEL = {
  manifest: path.join(REPO_ROOT, 'test', 'scriptedModel', 'package.json'),
  code: path.join(REPO_ROOT, 'out', 'test', 'scriptedModel'),
};

function versionParts(version) {
  return version.replace(/^[^\d]*/, '').split('.').map(Number);
}

function extensionFolder(sandbox, manifest) {
  return path.join(sandbox.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
}

/**
 * Installs this checkout as Multi-Edit, as a link to it: VS Code loads it as it loads any installed
 * extension, from the same files `extensionDevelopmentPath` would give it. Build first.
 */
export function installMultiEdit(sandbox) {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  if (!fs.existsSync(path.join(REPO_ROOT, manifest.main))) {
    throw new Error(`${manifest.main} is missing; run \`npm run build\` first.`);
  }
  fs.symlinkSync(REPO_ROOT, extensionFolder(sandbox, manifest), 'dir');
}

/** Whether VS Code `vscode` satisfies an engines.vscode range of the form ^x.y.z or >=x.y.z. */
function satisfiesMinimum(vscode, range) {
  const have = versionParts(vscode);
  const need = versionParts(range);
  for (let index = 0; index < 3; index++) {
    if ((have[index] ?? 0) !== (need[index] ?? 0)) return (have[index] ?? 0) > (need[index] ?? 0);
  }
  return true;
}

/** The key that opens the chat with the scripted model picked (see below), as VS Code and playwright write it. */
const PICK_SCRIPTED_MODEL_KEY = { binding: 'ctrl+alt+shift+m', press: 'Control+Alt+Shift+M' };

/**
 * The chat view's model picker lists only Copilot's models until someone signs in, so the run's
 * user keybindings get one that opens the chat with the scripted model picked, as
 * `workbench.action.chat.open` allows.
 */
function bindScriptedModelKey(sandbox, vendor) {
  const binding = {
    key: PICK_SCRIPTED_MODEL_KEY.binding,
    command: 'workbench.action.chat.open',
    args: { query: '', isPartialQuery: true, modelSelector: { vendor } },
  };
  fs.writeFileSync(path.join(sandbox.userData, 'User', 'keybindings.json'), JSON.stringify([binding], null, 2));
}

/**
 * Installs the test extensions `version` can load. Returns what the run needs to know:
 * `names` of the installed extensions, `env` for the extension host, `scriptFile`, where the
 * scripted model reads its script, and `pickModelKey`, the key (for playwright's keyboard.press)
 * that opens the chat with it picked (both undefined when it is not installed).
 */
export function installTestExtensions(sandbox, version) {
  const manifest = JSON.parse(fs.readFileSync(SCRIPTED_MODEL.manifest, 'utf8'));
  if (!satisfiesMinimum(version.vscode, manifest.engines.vscode)) return { names: [], env: {}, scriptFile: undefined, pickModelKey: undefined };
  if (!fs.existsSync(path.join(SCRIPTED_MODEL.code, 'extension.js'))) {
    throw new Error(`${path.relative(REPO_ROOT, SCRIPTED_MODEL.code)} is missing; run \`npm run compile-tests\` first.`);
  }
  const id = `${manifest.publisher}.${manifest.name}`;
  const target = extensionFolder(sandbox, manifest);
  fs.cpSync(SCRIPTED_MODEL.code, target, { recursive: true });
  fs.copyFileSync(SCRIPTED_MODEL.manifest, path.join(target, 'package.json'));
  bindScriptedModelKey(sandbox, manifest.contributes.languageModelChatProviders[0].vendor);
  const scriptFile = path.join(sandbox.root, 'scripted-model.json');
  return { names: [id], env: { MULTI_EDIT_SCRIPTED_MODEL_SCRIPT: scriptFile }, scriptFile, pickModelKey: PICK_SCRIPTED_MODEL_KEY.press };
}
