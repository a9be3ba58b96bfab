// The tools picker of the Chat view (Configure Tools...) groups Multi-Edit's tools under the
// extension, with the tool set `multiEditTools` (the languageModelToolSets contribution) holding
// both. VS Code 1.100 has no tool sets and ignores the contribution, so the scenario is skipped there.
import { isNewerThan1100 } from './runner/needs.mjs';

export const name = 'the tools picker lists the multiEditTools tool set with both tools';

export function needs({ vscodeVersion }) {
  return isNewerThan1100(vscodeVersion) ? undefined : `VS Code ${vscodeVersion} has no tool sets`;
}

export async function run({ page, ui }) {
  // The Chat view, open at start, has the tools button in its input.
  const toolsButton = page.locator('.interactive-input-part [aria-label="Configure Tools..."]').first();
  if (!(await toolsButton.isVisible())) await page.keyboard.press('Control+Alt+I');
  const picker = page.locator('.quick-input-widget');
  const row = (label) => picker.locator(`.monaco-list-row[aria-label^="${label}"]`).first();
  // The picker lists the tools registered when it opens, and ours come with the extension's
  // activation: it is opened again until they show.
  const deadline = Date.now() + 45_000;
  for (;;) {
    await toolsButton.click();
    await ui.waitForText(picker.getByText('Configure Tools'));
    await page.keyboard.type('multi');
    if (await row('Multi-Edit').waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false)) break;
    if (Date.now() > deadline) throw new Error('the tools picker never listed Multi-Edit');
    await page.keyboard.press('Escape');
  }
  const expand = async (label) => {
    await ui.waitForText(row(label));
    if ((await row(label).getAttribute('aria-expanded')) === 'false') await row(label).locator('.monaco-tl-twistie').click();
  };
  await expand('Multi-Edit');
  await expand('multiEditTools, Exact, all-or-nothing edits');
  // The set's own rows sit one level below it.
  for (const tool of ['multiEdit, ', 'multiEditFiles, ']) {
    const levels = await picker.locator(`.monaco-list-row[aria-label^="${tool}"]`).evaluateAll((rows) => rows.map((element) => element.getAttribute('aria-level')));
    if (!levels.includes('3')) throw new Error(`${tool.slice(0, -2)} is not listed inside the tool set (levels ${JSON.stringify(levels)})`);
  }
  await ui.screenshot('tool-set');
  // The first Escape may only clear the filter: close the picker for the next scenario.
  for (let attempt = 0; attempt < 3 && (await picker.isVisible()); attempt++) {
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
  }
  await picker.waitFor({ state: 'hidden' });
}
