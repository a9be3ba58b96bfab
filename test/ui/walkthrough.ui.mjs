// The Get Started walkthrough ticks what a person did, whenever they open it: a request applied, a
// failure shown in the Problems panel, a quick fix used, all done here before the walkthrough is
// opened (VS Code 1.139 reads walkthroughs only then). Runs alone too: `ui.mjs walkthrough`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RENAME = 'requests/walkthrough-rename.multiedit.json';
const AMBIGUOUS = 'requests/walkthrough-ambiguous.multiedit.json';

export const name = 'the Get Started walkthrough ticks the steps the user has done';

function copyDemoRequest(workspace, demoName, relative) {
  fs.mkdirSync(path.join(workspace, 'requests'), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'demo', 'requests', demoName), path.join(workspace, relative));
}

export async function run({ ui, page, workspace }) {
  copyDemoRequest(workspace, '01-rename-total.multiedit.json', RENAME);
  copyDemoRequest(workspace, '04-ambiguous-match.multiedit.json', AMBIGUOUS);
  const cart = path.join(workspace, 'src', 'cart.ts');
  const cartBefore = fs.readFileSync(cart, 'utf8');

  // Apply a request.
  await ui.openFile(RENAME);
  await ui.runCommand('Multi-Edit: Apply Request');
  await ui.waitForText(page.locator('.notification-toast', { hasText: 'Multi-Edit: Applied' }), { timeout: 20_000 });
  // A failing request: its problem shows; a quick fix on it (the preferred one peeks every match).
  await ui.openFile(AMBIGUOUS);
  await ui.runCommand('Multi-Edit: Apply Request');
  const panel = await ui.openProblemsPanel();
  const problem = panel.locator('.monaco-list-row', { hasText: 'AMBIGUOUS_MATCH' }).filter({ hasText: 'Ln 17' }).first();
  await ui.waitForText(problem, { timeout: 20_000 });
  await problem.click();
  await page.keyboard.press('Enter');
  await page.locator('.part.editor .monaco-editor.focused').waitFor({ state: 'visible' });
  await ui.openQuickFixMenu();
  await page.keyboard.press('Enter');
  await ui.waitForText(page.locator('.peekview-widget'));
  await page.keyboard.press('Escape');
  await ui.runCommand('Notifications: Clear All Notifications');

  await ui.openCommandPalette('Welcome: Open Walkthrough...');
  await (await ui.waitForQuickPickItem('Welcome: Open Walkthrough...')).click();
  await (await ui.waitForQuickPickItem('Get started with Multi-Edit')).click();
  const walkthrough = page.locator('.gettingStartedContainer');
  for (const step of ['Apply a request', 'Review failures in the Problems panel', 'Fix a failed edit', 'Preview before applying', 'Let Copilot use it']) {
    await ui.waitForText(step, { within: walkthrough });
  }
  for (const done of ['Apply a request', 'Review failures in the Problems panel', 'Fix a failed edit']) {
    await ui.waitForText(walkthrough.locator('button.getting-started-step[aria-checked="true"]', { hasText: done }).first());
  }
  await page.mouse.move(5, 5);
  await ui.screenshot('walkthrough');

  // Leave the workspace as it was.
  await ui.closeModalEditor();
  await ui.runCommand('Multi-Edit: Clear Diagnostics');
  await ui.runCommand('View: Close All Editors');
  fs.writeFileSync(cart, cartBefore);
}
