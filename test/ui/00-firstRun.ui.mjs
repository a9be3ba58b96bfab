// A new user meets the Get Started walkthrough first, as VS Code opens it when the extension is
// installed: every step is listed, none is ticked yet (walkthrough.ui.mjs finds them ticked once it
// has done what they ask). Its name sorts it first: the other scenarios do what ticks the steps.
export const name = 'a new user opens the Get Started walkthrough: every step listed, none ticked';

export async function run({ ui, page }) {
  // This command answers with a second quick pick, the list of walkthroughs, made when it opens:
  // right after start-up the extension's walkthrough may not be in it yet, so it is opened again.
  for (let attempt = 1; ; attempt++) {
    await ui.openCommandPalette('Welcome: Open Walkthrough...');
    await (await ui.waitForQuickPickItem('Welcome: Open Walkthrough...')).click();
    const listed = await ui.waitForQuickPickItem('Get started with Multi-Edit', 5_000).then((item) => item, () => undefined);
    if (listed) {
      await listed.click();
      break;
    }
    if (attempt === 4) throw new Error('the walkthrough "Get started with Multi-Edit" is not listed');
    await ui.closeQuickInput();
  }
  const walkthrough = page.locator('.gettingStartedContainer');
  const steps = walkthrough.locator('button.getting-started-step');
  await ui.waitForText(steps.first());
  const states = await steps.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-checked')));
  if (states.length < 6 || states.some((state) => state !== 'false')) {
    throw new Error(`expected six unticked steps, found ${JSON.stringify(states)}`);
  }
  // VS Code 1.139 shows it in a modal editor over the workbench: closed, as a person would.
  await ui.closeModalEditor();
  await ui.runCommand('View: Close All Editors');
}
