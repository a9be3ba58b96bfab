// A person previews a request from the palette: VS Code's Refactor Preview lists each edit under
// its own label, every change ticked; nothing changes until Apply, and one click on Apply applies
// the whole request.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEMO_REQUEST = path.join(REPO_ROOT, 'demo', 'requests', '01-rename-total.multiedit.json');
const REQUEST = 'requests/rename-total.multiedit.json';

async function waitForFile(file, predicate, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(fs.readFileSync(file, 'utf8'))) {
    if (Date.now() > deadline) throw new Error(`${file} did not change as expected within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const name = 'a request previewed in the Refactor Preview opens ticked and applies with one click';

export async function run({ page, workspace, ui }) {
  fs.mkdirSync(path.join(workspace, 'requests'), { recursive: true });
  fs.copyFileSync(DEMO_REQUEST, path.join(workspace, REQUEST));
  const cart = path.join(workspace, 'src', 'cart.ts');
  const before = fs.readFileSync(cart, 'utf8');

  await ui.runCommand('Notifications: Clear All Notifications');
  await ui.openFile(REQUEST);
  await ui.runCommand('Multi-Edit: Preview Request');
  const preview = page.locator('.bulk-edit-panel');
  await ui.waitForText(preview, { timeout: 20_000 });

  // It opens grouped by label: each edit is a category named "Edit N: …".
  for (const label of ['Edit 1: “import { formatPrice } from', 'Edit 2: “export function total(” → “export function cartTotal(”', 'Edit 3:']) {
    await ui.waitForText(preview.getByText(label).first());
  }
  await page.mouse.move(5, 5);
  await ui.screenshot('refactor-preview', { media: 'media/walkthrough/preview.png' });
  if (fs.readFileSync(cart, 'utf8') !== before) throw new Error('cart.ts changed while the preview was open');

  // Back to files: every change and the file itself are already ticked; one click applies them.
  await page.locator('.codicon-ungroup-by-ref-type').first().click();
  const rows = preview.locator('.monaco-list-row');
  await ui.waitForText(rows.filter({ hasText: 'cart.ts' }).first());
  const boxes = preview.locator('.edit-checkbox');
  const count = await boxes.count();
  if (count < 2) throw new Error(`expected the file and its changes with checkboxes, found ${count}`);
  for (let index = 0; index < count; index++) {
    if (!(await boxes.nth(index).isChecked())) throw new Error(`checkbox ${index + 1} of ${count} starts unticked`);
  }
  await page.mouse.move(5, 5);
  await ui.screenshot('refactor-preview-ticked');
  await preview.locator('.buttons .monaco-button', { hasText: 'Apply' }).click();
  await waitForFile(cart, (text) => text.includes('export function cartTotal(') && text.includes('formatQuantity'));
  const toast = page.locator('.notification-toast', { hasText: 'Multi-Edit: Applied 3 edits' });
  await ui.waitForText(toast);
  for (const action of ['Show Diff', 'Undo']) await ui.waitForText(toast.locator('.monaco-button', { hasText: action }));
  // Leave the workspace as the next scenario expects it.
  fs.writeFileSync(cart, before);
}
