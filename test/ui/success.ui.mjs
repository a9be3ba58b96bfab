// A person applies a request and sees it land: the notification offers Show Diff, Open File and
// Undo; Show Diff opens a diff editor of the file before against after; the status bar shows the
// outcome ("3 edits"). A failing request then turns the status bar to its code and its problems,
// and a click on it opens the Problems panel. Undo takes the whole request back.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RENAME = 'requests/rename-total.multiedit.json';
const AMBIGUOUS = 'requests/ambiguous.multiedit.json';

function copyDemoRequest(workspace, demoName, relative) {
  fs.mkdirSync(path.join(workspace, 'requests'), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'demo', 'requests', demoName), path.join(workspace, relative));
}

export const name = 'a request applied: Undo, Show Diff, the status bar';

async function waitForDisk(file, predicate, what) {
  const deadline = Date.now() + 15_000;
  while (!predicate(fs.readFileSync(file, 'utf8'))) {
    if (Date.now() > deadline) throw new Error(`${file}: ${what} did not happen within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function run({ page, workspace, ui }) {
  copyDemoRequest(workspace, '01-rename-total.multiedit.json', RENAME);
  copyDemoRequest(workspace, '04-ambiguous-match.multiedit.json', AMBIGUOUS);
  const cart = path.join(workspace, 'src', 'cart.ts');
  const before = fs.readFileSync(cart, 'utf8');
  const applied = (text) => text.includes('export function cartTotal(');
  await ui.runCommand('Multi-Edit: Clear Diagnostics');
  const applyRename = async () => {
    await ui.runCommand('Notifications: Clear All Notifications');
    const tab = page.locator('.tabs-container .tab', { hasText: 'rename-total.multiedit.json' });
    if (await tab.count()) await tab.click();
    else await ui.openFile(RENAME);
    await ui.runCommand('Multi-Edit: Apply Request');
    const toast = page.locator('.notification-toast', { hasText: 'Multi-Edit: Applied 3 edits' });
    await ui.waitForText(toast, { timeout: 20_000 });
    await waitForDisk(cart, applied, 'saving the edits');
    return toast;
  };

  // The notification offers what comes next; the status bar shows the outcome.
  const toast = await applyRename();
  for (const action of ['Show Diff', 'Open File', 'Undo']) {
    await ui.waitForText(toast.locator('.monaco-button', { hasText: action }));
  }
  const status = page.locator('.statusbar-item', { hasText: '3 edits' });
  await ui.waitForText(status);
  if (!(await status.locator('.codicon-check').count())) throw new Error('the status bar item has no check mark');
  await ui.screenshot('success-toast');

  // Undo takes the whole request back in one step; saving puts the file back as it was.
  await toast.locator('.monaco-button', { hasText: 'Undo' }).click();
  await ui.waitForText(page.locator('.tabs-container .tab.active', { hasText: 'cart.ts' }));
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await ui.waitForText(editor.getByText('export function total(').first());
  await page.keyboard.press('Control+S');
  await waitForDisk(cart, (text) => text === before, 'the undo');
  // The status bar no longer counts the undone edits as applied.
  await ui.waitForText(page.locator('.statusbar-item', { hasText: '3 edits undone' }));

  // Show Diff: a diff editor, the file before (left) against after (right).
  const second = await applyRename();
  await second.locator('.monaco-button', { hasText: 'Show Diff' }).click();
  const diff = page.locator('.monaco-diff-editor');
  await ui.waitForText(diff);
  await ui.waitForText(page.locator('.tabs-container .tab.active', { hasText: 'cart.ts (before ↔ after Multi-Edit)' }));
  await ui.waitForText(diff.locator('.editor.original').getByText('export function total(').first());
  await ui.waitForText(diff.locator('.editor.modified').getByText('export function cartTotal(').first());
  await page.mouse.move(5, 5);
  await ui.screenshot('success-diff', { media: 'media/walkthrough/apply.png' });

  // A failure: the status bar shows its code and the open problems; a click opens the Problems panel.
  await ui.openFile(AMBIGUOUS);
  await ui.runCommand('Multi-Edit: Apply Request');
  const failed = page.locator('.statusbar-item', { hasText: 'AMBIGUOUS_MATCH' });
  await ui.waitForText(failed, { timeout: 20_000 });
  await ui.waitForText(failed.locator('.codicon-warning'));
  await ui.runCommand('Notifications: Clear All Notifications');
  await page.mouse.move(5, 5);
  await ui.screenshot('status-bar-failure');
  await failed.click();
  const panel = page.locator('.markers-panel');
  await ui.waitForText(panel);
  await ui.waitForText(panel.locator('.monaco-list-row', { hasText: 'AMBIGUOUS_MATCH' }).first());
  // The status bar counts what the Problems panel lists as Multi-Edit's: in the target file and in the request file.
  const ours = panel.locator('.monaco-list-row').filter({ has: page.locator('.marker-source', { hasText: /^\W*multi-edit/ }) });
  await ui.waitForText(ours.nth(1));
  const listed = await ours.count();
  const counted = Number(/\d+\s*$/.exec(await failed.innerText())?.[0]);
  if (counted !== listed) throw new Error(`the status bar counts ${counted} problems; the Problems panel lists ${listed} of Multi-Edit's`);
  await page.mouse.move(5, 5);
  await ui.screenshot('status-bar-problems');
  await ui.runCommand('Multi-Edit: Clear Diagnostics');
  await ui.waitForText(panel.getByText('No problems have been detected in the workspace.'));

  // Leave the workspace as the next scenario expects it: the request undone and saved.
  await page.locator('.tabs-container .tab').filter({ hasText: /^\s*cart\.ts\s*$/ }).click();
  await page.keyboard.press('Control+Z');
  await page.keyboard.press('Control+S');
  await waitForDisk(cart, (text) => text === before, 'the clean-up undo');
  await ui.runCommand('View: Close All Editors');
}
