// A person opens Multi-Edit's settings (as the walkthrough's last step offers) and finds each one
// in the Settings editor with its description, the status bar switch included.
export const name = 'the Settings editor lists the Multi-Edit settings';

export async function run({ ui, page }) {
  await ui.runCommand('Preferences: Open Settings (UI)');
  const editor = page.locator('.settings-editor');
  await ui.waitForText(editor);
  await page.keyboard.type('@ext:multi-edit.multi-edit');
  for (const title of ['Context Lines', 'Save After Edit', 'Protected Globs']) {
    await ui.waitForText(editor.locator('.setting-item-label', { hasText: title }).first(), { timeout: 20_000 });
  }
  await page.mouse.move(5, 5);
  await ui.screenshot('settings', { media: 'media/walkthrough/settings.png', element: page.locator('.part.editor') });
  await ui.runCommand('View: Close All Editors');
}
