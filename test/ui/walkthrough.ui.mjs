// A new user finds the Get Started walkthrough and sees its steps. It runs after the other
// scenarios, which applied a request, showed problems and used quick fixes in this session: the
// steps for those are ticked, as they tick on the real events.
export const name = 'the Get Started walkthrough opens with its steps, ticked for what was done';

export async function run({ ui, page }) {
  // This command answers with a second quick pick, the list of walkthroughs.
  await ui.openCommandPalette('Welcome: Open Walkthrough...');
  await (await ui.waitForQuickPickItem('Welcome: Open Walkthrough...')).click();
  await (await ui.waitForQuickPickItem('Get started with Multi-Edit')).click();
  const walkthrough = page.locator('.gettingStartedContainer');
  for (const step of ['Apply a request', 'Review failures in the Problems panel', 'Fix a failed edit', 'Preview before applying', 'Let Copilot use it']) {
    await ui.waitForText(step, { within: walkthrough });
  }
  for (const done of ['Apply a request', 'Review failures in the Problems panel', 'Fix a failed edit']) {
    await ui.waitForText(walkthrough.locator('.getting-started-step.complete', { hasText: done }).first());
  }
  await page.mouse.move(5, 5);
  await ui.screenshot('walkthrough', { media: 'media/walkthrough-ticked.png' });
}
