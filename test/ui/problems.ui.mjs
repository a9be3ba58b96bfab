// A person runs a failing request from the palette and reviews it: the Problems panel shows the
// code, the message and every "match i of N"; Ctrl+. on the problem lists the quick fixes; the
// preferred fix peeks every match location; the replace_all retry asks first, then applies, and its
// notification offers Show Diff and Undo.
// Screenshots of each step go to test-artifacts/ui/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEMO_REQUEST = path.join(REPO_ROOT, 'demo', 'requests', '04-ambiguous-match.multiedit.json');
const REQUEST = 'requests/ambiguous.multiedit.json';

const QUICK_FIX_TITLES = [
  'Peek all 2 match locations',
  'Retry edit 1 with replace_all',
  'Open the failed request',
  'Show envelope',
  'Copy envelope',
  'Copy hints',
  'Dismiss',
];

export const name = 'a failing request: Problems panel, quick fixes and the peek of every match';

export async function run({ page, workspace, ui }) {
  // The demo's ambiguous request (src/inventory.ts has its old_string twice), as a file of the workspace.
  fs.mkdirSync(path.join(workspace, 'requests'), { recursive: true });
  fs.copyFileSync(DEMO_REQUEST, path.join(workspace, REQUEST));
  const inventory = fs.readFileSync(path.join(workspace, 'src', 'inventory.ts'), 'utf8');

  await ui.openFile(REQUEST);
  await ui.runCommand('Multi-Edit: Apply Request');
  // The failure's notification (with "Show Problems" and "Show Envelope"); closed so it covers nothing.
  const toast = page.locator('.notification-toast', { hasText: 'Multi-Edit · Edit 1 · AMBIGUOUS_MATCH' });
  await ui.waitForText(toast, { timeout: 20_000 });
  await toast.hover();
  await toast.locator('.codicon-notifications-clear').click();

  const panel = await ui.openProblemsPanel();
  // The problem in inventory.ts itself (the request file's own marker is listed too).
  const problem = panel.locator('.monaco-list-row', { hasText: 'Ln 17, Col 1' }).filter({ hasText: 'AMBIGUOUS_MATCH' }).first();
  await ui.waitForText(problem, { timeout: 20_000 });
  await ui.waitForText('Edit 1 · AMBIGUOUS_MATCH: old_string occurs 2 times in src/inventory.ts', { within: panel });
  await ui.waitForText('match 1 of 2', { within: panel });
  await ui.waitForText('match 2 of 2', { within: panel });
  await page.mouse.move(5, 5);
  await ui.screenshot('problems-panel', { media: 'media/walkthrough/problems.png' });

  // Open the problem in its editor (its range selected), then the quick-fix menu on it.
  const goToProblem = async () => {
    await problem.click();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'inventory.ts' }).waitFor({ state: 'visible' });
    // The tab may already be active: wait for the editor itself to take the keyboard.
    await page.locator('.part.editor .monaco-editor.focused').waitFor({ state: 'visible' });
  };
  await goToProblem();
  const menu = await ui.openQuickFixMenu();
  for (const title of QUICK_FIX_TITLES) {
    await ui.waitForText(menu.locator('.monaco-list-row', { hasText: title }).first());
  }
  await ui.screenshot('quick-fixes', { media: 'media/quick-fixes.png' });

  // The preferred fix comes first and is focused: Enter peeks every match location.
  await menu.locator('.monaco-list-row.focused', { hasText: 'Peek all 2 match locations' }).waitFor();
  await page.keyboard.press('Enter');
  const peek = page.locator('.peekview-widget');
  await ui.waitForText(peek);
  await ui.waitForText(peek.locator('.monaco-list-row', { hasText: 'return undefined;' }).nth(1));
  await page.mouse.move(5, 5);
  await ui.screenshot('peek', { media: 'media/peek.png' });
  await page.keyboard.press('Escape');
  await peek.waitFor({ state: 'hidden' });

  // "Retry edit 1 with replace_all" asks first, saying how many replacements it makes.
  await goToProblem();
  await ui.openQuickFixMenu();
  await menu.locator('.monaco-list-row', { hasText: 'Retry edit 1 with replace_all' }).first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const dialog = page.locator('.monaco-dialog-box');
  await ui.waitForText(dialog.getByText('Retry edit 1 with replace_all?'));
  await ui.waitForText(dialog.getByText('occurs 2 times in src/inventory.ts'));
  await ui.screenshot('replace-all-confirmation');
  await dialog.locator('.monaco-button', { hasText: 'Replace All' }).click();
  // Multi-Edit's problem goes (TypeScript may report its own about the new text: not ours to check).
  await problem.waitFor({ state: 'hidden', timeout: 15_000 });
  // Its success notification offers what any applied request offers: Show Diff and Undo.
  const applied = page.locator('.notification-toast', { hasText: 'Multi-Edit: Applied' });
  await ui.waitForText(applied, { timeout: 15_000 });
  for (const action of ['Show Diff', 'Undo']) await ui.waitForText(applied.locator('.monaco-button', { hasText: action }));
  await ui.screenshot('replace-all-applied');
  const inventoryFile = path.join(workspace, 'src', 'inventory.ts');
  if (fs.readFileSync(inventoryFile, 'utf8').includes('return undefined;')) {
    throw new Error('the replace_all retry left an occurrence in src/inventory.ts');
  }
  // Leave the workspace as the next scenario expects it.
  fs.writeFileSync(inventoryFile, inventory);
}
