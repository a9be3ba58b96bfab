// A person opens a request file and runs it from its CodeLens. The near miss (spaces where the
// file has tabs) is marked on the edit that failed, in the request file itself; in the target file
// the hover shows old_string against the file's text, whitespace visible; the preferred quick fix
// compares them in a diff editor; "Open the failed request" goes back to the request file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REQUEST = 'requests/near-miss.multiedit.json';

export const name = 'a request file: CodeLens, markers on the failed edit, the hover and the compare fix';

export async function run({ page, workspace, ui }) {
  fs.mkdirSync(path.join(workspace, 'requests'), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'demo', 'requests', '03-whitespace-near-miss.multiedit.json'), path.join(workspace, REQUEST));
  const logger = path.join(workspace, 'src', 'logger.ts');
  const before = fs.readFileSync(logger, 'utf8');
  await ui.runCommand('Notifications: Clear All Notifications');

  // CodeLens above the request: Apply and Preview.
  await ui.openFile(REQUEST);
  const lenses = page.locator('.contentWidgets .codelens-decoration, .codelens-decoration');
  await ui.waitForText(lenses.getByText('Apply', { exact: true }).first(), { timeout: 20_000 });
  await ui.waitForText(lenses.getByText('Preview', { exact: true }).first());
  await lenses.getByText('Apply', { exact: true }).first().click();

  // The failed edit is marked in the request file, on its old_string, and the lens shows the outcome.
  await ui.waitForText(lenses.getByText('Last run: MATCH_NOT_FOUND').first(), { timeout: 20_000 });
  const panel = await ui.openProblemsPanel();
  const marker = panel.locator('.monaco-list-row', { hasText: 'Edit 2 · MATCH_NOT_FOUND' }).first();
  await ui.waitForText(marker);
  await ui.waitForText(panel.locator('.monaco-list-row', { hasText: 'near-miss.multiedit.json' }).first());
  await ui.waitForText(page.locator('.editor-instance .squiggly-error').first());
  if (fs.readFileSync(logger, 'utf8') !== before) throw new Error('the failed request changed src/logger.ts');
  await ui.runCommand('Notifications: Clear All Notifications');
  await page.mouse.move(5, 5);
  await ui.screenshot('request-file-markers', { media: 'media/request-file.png' });
  await ui.waitForText(marker.getByText('Cause: INDENTATION').first());

  // The hover on the problem in logger.ts: old_string against the file's text, tabs and spaces shown.
  await ui.openFile('src/logger.ts');
  const squiggles = page.locator('.editor-instance .squiggly-error');
  await ui.waitForText(squiggles.first(), { timeout: 20_000 });
  // Newer VS Code's TypeScript may underline the file too: hover each squiggle until ours answers.
  const hover = page.locator('.monaco-hover').filter({ hasText: 'Edit 2: old_string (−) against the file (+) from line 7' }).first();
  for (let attempt = 0; ; attempt++) {
    const count = await squiggles.count();
    await page.mouse.move(5, 5);
    await squiggles.nth(attempt % Math.max(count, 1)).hover({ force: true });
    if (await hover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) break;
    if (attempt >= 2 * Math.max(count, 1) + 1) throw new Error(`no Multi-Edit hover on any of ${count} squiggles`);
  }
  await ui.waitForText(hover.getByText('INDENTATION').first());
  const shown = await hover.innerText();
  for (const line of ['- ····if·(ORDER[level]·<·ORDER[minimum])·{', '+ →→if·(ORDER[level]·<·ORDER[minimum])·{', '+ →→→return;']) {
    if (!shown.includes(line)) throw new Error(`the hover lacks "${line}": ${shown}`);
  }
  // It fits the 900-pixel window: its links show without scrolling, and it does not tell a person to hover.
  if (shown.includes('Hover to compare')) throw new Error(`the hover says "Hover to compare" while hovered: ${shown}`);
  const hoverBox = await hover.boundingBox();
  const linkBox = await hover.getByText('Compare in a diff editor').boundingBox();
  const viewport = page.viewportSize();
  if (!hoverBox || !linkBox || hoverBox.y < 0 || hoverBox.y + hoverBox.height > viewport.height || linkBox.y + linkBox.height > hoverBox.y + hoverBox.height) {
    throw new Error(`the hover does not fit the ${viewport.height}-pixel window with its links in view: hover ${JSON.stringify(hoverBox)}, link ${JSON.stringify(linkBox)}`);
  }
  await ui.screenshot('hover', { media: 'media/walkthrough/fix.png', element: page.locator('.part.editor') });

  // Compare in a diff editor, from the hover.
  await hover.getByText('Compare in a diff editor').click();
  await ui.waitForText(page.locator('.tabs-container .tab.active', { hasText: 'old_string ↔ src/logger.ts, line 7' }));
  const diff = page.locator('.monaco-diff-editor');
  await ui.waitForText(diff.locator('.editor.original').getByText('····if·(ORDER[level]').first());
  await ui.waitForText(diff.locator('.editor.modified').getByText('→→if·(ORDER[level]').first());
  await page.mouse.move(5, 5);
  await ui.screenshot('compare-diff');

  // The quick fixes put the comparison first; "Open the failed request" opens the request file.
  const problem = panel.locator('.monaco-list-row', { hasText: 'Ln 7, Col 1' }).filter({ hasText: 'Edit 2 · MATCH_NOT_FOUND' }).first();
  await problem.click();
  await page.keyboard.press('Enter');
  await ui.waitForText(page.locator('.tabs-container .tab.active').filter({ hasText: /^\s*logger\.ts\s*$/ }));
  // On a busy machine the first request for code actions can come back empty while the language
  // server starts; a person presses Ctrl+. again, and so does this test (three tries at most).
  const menu = page.locator('.action-widget');
  const compare = menu.locator('.monaco-list-row.focused', { hasText: "Compare edit 2's old_string with the file" });
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+.');
    if (await compare.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) break;
    if (attempt === 3) throw new Error('the quick fixes did not open with "Compare edit 2\'s old_string with the file" first');
    await page.keyboard.press('Escape');
  }
  const openRequest = menu.locator('.monaco-list-row.focused', { hasText: 'Open the failed request' });
  for (let step = 0; step < 16 && !(await openRequest.count()); step++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await ui.waitForText(page.locator('.tabs-container .tab.active', { hasText: 'near-miss.multiedit.json' }));

  await ui.runCommand('Multi-Edit: Clear Diagnostics');
  await ui.runCommand('View: Close All Editors');
}
