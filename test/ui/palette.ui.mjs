// A person finds every Multi-Edit command by typing "Multi-Edit" into the command palette.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));

/** A "%key%" title as VS Code shows it, from package.nls.json. */
function localized(title, strings) {
  const key = /^%([\w.-]+)%$/.exec(title)?.[1];
  return key === undefined ? title : strings[key];
}

/** Palette labels ("Category: Title") of the contributed commands not hidden from the palette. */
function paletteLabels() {
  const { contributes = {} } = readJson('package.json');
  const strings = readJson('package.nls.json');
  const hidden = new Set((contributes.menus?.commandPalette ?? [])
    .filter((entry) => entry.when === 'false')
    .map((entry) => entry.command));
  return (contributes.commands ?? [])
    .filter((command) => !hidden.has(command.command))
    .map((command) => {
      const title = localized(command.title, strings);
      return command.category ? `${command.category}: ${title}` : title;
    });
}

export const name = 'the command palette lists every Multi-Edit command';

export async function run({ ui }) {
  const expected = paletteLabels();
  if (expected.length === 0) {
    throw new Error('package.json contributes no palette commands (contributes.commands is empty)');
  }
  await ui.openCommandPalette('Multi-Edit');
  await ui.waitForQuickPickItem(expected[0]);
  await ui.screenshot('palette-multi-edit');
  const listed = await ui.quickPickLabels();
  // A long list renders only the rows that fit; look for the others by their full label.
  for (const label of expected.filter((label) => !listed.includes(label))) {
    await ui.openCommandPalette(label);
    await ui.waitForQuickPickItem(label);
  }
  await ui.closeQuickInput();
}
