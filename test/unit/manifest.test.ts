/** The manifest and the code agree: every command is an ID the code registers, every file it names exists. */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/vscode/platform/ids';
import { REPO_ROOT as ROOT, filesNamedBy, placeholdersOf, readJsonFile, readLocalizedManifest } from './helpers/manifest';

const manifest = readLocalizedManifest();

describe('extension manifest', () => {
  it('contributes exactly the commands of the IDs module, each shown as "Multi-Edit: ..." in the palette', () => {
    const contributed = manifest.contributes.commands;
    assert.deepEqual(contributed.map((command) => command.command).sort(), Object.values(COMMANDS).sort());
    for (const command of contributed) {
      const shown = command.category === undefined ? command.title : `${command.category}: ${command.title}`;
      assert.match(shown, /^Multi-Edit: \S/, command.command);
    }
  });

  it('titles the commands of context menus "Multi-Edit: ...", since menus show the title without its category', () => {
    const menus = manifest.contributes.menus;
    const inContextMenus = new Set(['editor/context', 'explorer/context'].flatMap((menu) => menus[menu].map((item) => item.command)));
    assert.ok(inContextMenus.size > 0);
    for (const id of inContextMenus) {
      const command = manifest.contributes.commands.find((candidate) => candidate.command === id);
      assert.ok(command, id);
      assert.match(command.title, /^Multi-Edit: \S/, id);
      assert.equal(command.category, undefined, `${id} has no category, or the palette would say "Multi-Edit: Multi-Edit: ..."`);
    }
  });

  it('takes every "%key%" string of package.json from package.nls.json, which holds no unused key', () => {
    const strings = readJsonFile('package.nls.json') as Record<string, string>;
    const raw = readJsonFile('package.json') as Record<string, unknown>;
    const used = placeholdersOf(raw);
    assert.ok(used.length > 30, 'the manifest\'s people-facing strings are localizable');
    assert.deepEqual(used.filter((key) => strings[key] === undefined), [], 'keys missing from package.nls.json');
    assert.deepEqual(Object.keys(strings).filter((key) => !used.includes(key)), [], 'keys no string uses');
    for (const field of ['displayName', 'description']) {
      assert.match(String(raw[field]), /^%.+%$/, field);
    }
  });

  it('groups exactly the contributed tools into one tool set, by their reference names', () => {
    const referenceNames = (manifest.contributes.languageModelTools as { toolReferenceName: string }[]).map((tool) => tool.toolReferenceName);
    const [toolSet, ...others] = manifest.contributes.languageModelToolSets as { name: string; tools: string[] }[];
    assert.equal(others.length, 0);
    assert.match(toolSet.name, /^[\w-]+$/);
    assert.ok(!referenceNames.includes(toolSet.name), 'the set is not named like one of its tools');
    assert.deepEqual(toolSet.tools, referenceNames);
  });

  it('names an icon, walkthrough media and a request-file schema that exist', () => {
    const files = filesNamedBy(manifest).filter((file) => file !== manifest.main);
    assert.ok(manifest.contributes.walkthroughs[0].steps.length >= 3, 'the walkthrough has steps');
    for (const file of files) {
      assert.ok(existsSync(join(ROOT, file)), `${file} exists`);
    }
  });

  it('links walkthrough steps only to contributed commands or built-in ones', () => {
    const steps = manifest.contributes.walkthroughs[0].steps;
    const linked = steps.flatMap((step) => [...step.description.matchAll(/\(command:([\w.]+)/g)].map((match) => match[1]));
    assert.ok(linked.length > 0);
    const ours = linked.filter((command) => command.startsWith('multiEdit.'));
    for (const command of ours) {
      assert.ok((Object.values(COMMANDS) as string[]).includes(command), command);
    }
  });

  it('binds keys to Apply and Preview only while a request file has the focus', () => {
    const bindings = manifest.contributes.keybindings;
    assert.deepEqual(bindings.map((binding) => binding.command).sort(), [COMMANDS.applyRequest, COMMANDS.previewRequest].sort());
    const contributed = manifest.contributes.commands.map((command) => command.command);
    const keys = new Set<string>();
    for (const binding of bindings) {
      assert.ok(contributed.includes(binding.command), `${binding.command} is a contributed command`);
      for (const key of [binding.key, binding.mac ?? binding.key]) {
        assert.ok(!keys.has(key), `${key} is bound once`);
        keys.add(key);
      }
      const when = binding.when ?? '';
      assert.match(when, /\beditorTextFocus\b/, binding.command);
      const pattern = /resourceFilename =~ \/(.+)\/$/.exec(when)?.[1];
      assert.ok(pattern !== undefined, `${binding.command} is limited by the file name: ${when}`);
      const requestFile = new RegExp(pattern);
      assert.ok(requestFile.test('rename.multiedit.json'));
      for (const other of ['rename.json', 'package.json', 'rename.multiedit.json.bak', 'rename.multiedit.jsonc', 'multiedit.ts']) {
        assert.ok(!requestFile.test(other), `${binding.command} is not bound in ${other}`);
      }
    }
  });

  it('runs where the workspace is (extensionKind workspace) and declares virtual workspaces unsupported, saying why', () => {
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    const virtual = manifest.capabilities.virtualWorkspaces;
    assert.equal(virtual.supported, false);
    assert.match(virtual.description ?? '', /virtual workspaces/, 'the description is text from package.nls.json that VS Code shows');
  });

  it('works in Restricted Mode with the settings that write files or skip a confirmation ignored there', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.match(untrusted.description ?? '', /\S/, 'the description is text from package.nls.json');
    const restricted = untrusted.restrictedConfigurations ?? [];
    assert.deepEqual([...restricted].sort(), ['multiEdit.diagnostics.confirmReplaceAll', 'multiEdit.saveAfterEdit']);
    const settings = Object.keys(manifest.contributes.configuration.properties);
    for (const setting of restricted) {
      assert.ok(settings.includes(setting), `${setting} is a contributed setting`);
    }
  });
});
