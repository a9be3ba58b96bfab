// A person opens Multi-Edit's settings (as the walkthrough's last step offers) and finds every
// contributed setting in the Settings editor, each with its description.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
export const name = 'the Settings editor lists the Multi-Edit settings';

const MANIFEST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');

export async function run({ ui, page }) {
  const contributed = Object.keys(JSON.parse(fs.readFileSync(MANIFEST, 'utf8')).contributes.configuration.properties).length;
  // The panel would hide most of the list (only what fits is rendered).
  if (await page.locator('.part.panel').isVisible()) await page.keyboard.press('Control+J');
  await ui.runCommand('Preferences: Open Settings (UI)');
  const editor = page.locator('.settings-editor');
  await ui.waitForText(editor);
  await page.keyboard.type('@ext:multi-edit.multi-edit');
  await ui.waitForText(editor.getByText(`${contributed} Settings Found`), { timeout: 20_000 });
  for (const title of ['Context Lines', 'Max Match Locations']) {
    await ui.waitForText(editor.locator('.setting-item-label', { hasText: title }).first());
  }
  await page.mouse.move(5, 5);
  // VS Code 1.139 shows Settings in a modal editor: the picture is of that editor, wherever it is.
  const part = page.locator('.modal-editor-part');
  await ui.screenshot('settings', { media: 'media/walkthrough/settings.png', element: (await part.isVisible()) ? part : page.locator('.part.editor') });
  await ui.closeModalEditor();
  await ui.runCommand('View: Close All Editors');
}
