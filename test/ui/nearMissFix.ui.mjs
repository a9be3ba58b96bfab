// A near miss in a request file, fixed from the request file: the quick fix "Use the file's text for
// old_string" writes the file's own text (tabs where the request had spaces) into old_string, shows
// the request now and fixed in a diff, and on "Save and Apply Again" saves it and applies it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REQUEST = 'requests/fix-from-file.multiedit.json';

export const name = 'a near miss fixed from the request file: "Use the file\'s text for old_string"';

export async function run({ page, workspace, ui }) {
  fs.mkdirSync(path.join(workspace, 'requests'), { recursive: true });
  const requestFile = path.join(workspace, REQUEST);
  fs.copyFileSync(path.join(REPO_ROOT, 'demo', 'requests', '03-whitespace-near-miss.multiedit.json'), requestFile);
  const logger = path.join(workspace, 'src', 'logger.ts');
  const before = fs.readFileSync(logger, 'utf8');
  await ui.runCommand('Notifications: Clear All Notifications');

  await ui.openFile(REQUEST);
  await ui.runCommand('Multi-Edit: Apply Request');
  const panel = await ui.openProblemsPanel();
  const marker = panel.locator('.monaco-list-row', { hasText: 'Edit 2 · MATCH_NOT_FOUND' })
    .filter({ has: page.locator('.marker-source', { hasText: /request/ }) }).first();
  await ui.waitForText(marker, { timeout: 20_000 });
  await ui.runCommand('Notifications: Clear All Notifications');
  await marker.click();
  await page.keyboard.press('Enter');
  await ui.waitForText(page.locator('.tabs-container .tab.active', { hasText: 'fix-from-file.multiedit.json' }));
  await page.locator('.part.editor .monaco-editor.focused').waitFor({ state: 'visible' });

  const menu = await ui.openQuickFixMenu();
  const useFileText = menu.locator('.monaco-list-row', { hasText: "Use the file's text for old_string" }).first();
  await ui.waitForText(useFileText);
  await ui.screenshot('near-miss-quick-fix');
  // Chosen with the keyboard, as the menu expects (VS Code 1.100 ignores a click that lands while it settles).
  const focused = menu.locator('.monaco-list-row.focused', { hasText: "Use the file's text for old_string" });
  for (let step = 0; step < 8 && !(await focused.count()); step++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');

  // The request now and fixed, side by side, and the question.
  const diff = page.locator('.monaco-diff-editor');
  await ui.waitForText(page.locator('.tabs-container .tab', { hasText: 'fix-from-file.multiedit.json (now ↔ fixed)' }));
  await ui.waitForText(diff.locator('.editor.modified').getByText(/\\t\\tif/).first());
  const dialog = page.locator('.monaco-dialog-box');
  await ui.waitForText(dialog.getByText("Write the file's text into old_string, then apply the request again?"));
  await ui.screenshot('near-miss-fix-diff', { media: 'media/near-miss-fix.png' });
  await dialog.locator('.monaco-button', { hasText: 'Save and Apply Again' }).click();

  await ui.waitForText(page.locator('.notification-toast', { hasText: 'Multi-Edit: Applied 2 edits' }), { timeout: 20_000 });
  const fixed = JSON.parse(fs.readFileSync(requestFile, 'utf8')).edits[1].old_string;
  if (!fixed.startsWith('\t\tif (ORDER[level] < ORDER[minimum]) {\n')) throw new Error(`old_string in the saved request: ${JSON.stringify(fixed)}`);
  const after = fs.readFileSync(logger, 'utf8');
  if (!after.includes("|| message === ''")) throw new Error('src/logger.ts did not get the edit');

  // Leave the workspace as it was.
  await ui.runCommand('View: Close All Editors');
  await ui.runCommand('Notifications: Clear All Notifications');
  fs.writeFileSync(logger, before);
}
