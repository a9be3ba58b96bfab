// A new user finds the Get Started walkthrough and sees its steps.
export const name = 'the Get Started walkthrough opens with its steps';

export async function run({ ui, page }) {
  // This command answers with a second quick pick, the list of walkthroughs.
  await ui.openCommandPalette('Welcome: Open Walkthrough...');
  await (await ui.waitForQuickPickItem('Welcome: Open Walkthrough...')).click();
  await (await ui.waitForQuickPickItem('Get started with Multi-Edit')).click();
  const walkthrough = page.locator('.gettingStartedContainer');
  for (const step of ['Apply a request', 'Review failures in the Problems panel', 'Preview before applying', 'Let Copilot use it']) {
    await ui.waitForText(step, { within: walkthrough });
  }
  await ui.screenshot('walkthrough');
}
