// A person asks @multiedit for a change in the Chat view, with the scripted model picked: the
// model's first multi_edit call misses (the file is indented with tabs), it reads the envelope and
// fixes its call from context.snippet. When the turn ends, VS Code folds its steps under
// "Completed N steps"; the recap keeps the failure and the recovery in view. Unfolded, the failure
// shows its code, cause, the anchor to the line that differs and its buttons. Then a failing
// /apply, its follow-up, and /explain. Screenshots go to the artifacts folder, and to media/ when
// `npm run media` runs the scenarios.
import fs from 'node:fs';
import path from 'node:path';

const TOTAL = ['function total(items) {', '\tlet sum = 0;', '\tfor (const item of items) sum += item;', '\treturn sum;', '}', ''].join('\n');

export const name = 'chat: @multiedit recovers from an envelope, keeps the failure in view, /apply and /explain';

export function needs({ scriptFile, vscodeVersion }) {
  return scriptFile ? undefined : `the scripted model needs VS Code 1.104 or later (this is ${vscodeVersion})`;
}

function recoveryScript(file) {
  return [{
    prompt: 'double the total',
    rounds: [
      { text: 'I will double the returned total.', toolCalls: [{ name: 'multi_edit', input: { file_path: file, edits: [{ old_string: '    return sum;', new_string: '    return sum * 2;' }] } }] },
      { text: 'The file is indented with tabs: I copied the line from the snippet.', toolCalls: [{ name: 'multi_edit', fixFromLastResult: true }] },
      { text: 'Done: total() now returns twice the sum.' },
    ],
  }];
}

/** Types a prompt into the chat input and sends it; a space first closes the completion list. */
async function send(page, chat, prompt) {
  await chat.locator('.interactive-input-part .monaco-editor').first().click();
  await page.keyboard.type(`${prompt} `);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
}

export async function run({ page, workspace, ui, scriptFile, pickModelKey }) {
  const file = path.join(workspace, 'src', 'total.js');
  fs.writeFileSync(file, TOTAL);
  fs.writeFileSync(scriptFile, JSON.stringify(recoveryScript(file)));

  // The chat opened with the scripted model picked (a user keybinding the runner adds), made wide.
  // The model registers once its extension activates, after the workbench appears: press again until it is picked.
  const picked = page.locator('.interactive-input-part').getByText('Scripted Model').first();
  const deadline = Date.now() + 30_000;
  do {
    await page.keyboard.press(pickModelKey);
  } while (!(await picked.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false)) && Date.now() < deadline);
  await ui.waitForText(picked);
  const chat = page.locator('.interactive-session').first();
  // The chat view takes the whole window, so the screenshots show whole lines.
  await page.locator('.part.auxiliarybar .codicon-auxiliarybar-maximize').first().click();
  await send(page, chat, '@multiedit double the total in total.js');

  await ui.waitForText(chat.getByText('Done: total() now returns twice the sum.'), { timeout: 30_000 });
  if (!fs.readFileSync(file, 'utf8').includes('\treturn sum * 2;')) throw new Error('src/total.js was not changed');
  // Folded steps; the recap lists the failed call, with its cause, and the call that recovered.
  await ui.waitForText(chat.getByText('Tool calls in this turn'));
  await ui.waitForText(chat.getByText(/Round 1 · multi_edit · MATCH_NOT_FOUND Edit 1 of 1 failed/));
  await ui.waitForText(chat.getByText(/Round 2 · multi_edit · Applied 1 edit/));
  await page.mouse.move(5, 5);
  await ui.screenshot('chat-recovery', { media: 'media/chat-recovery.png' });

  // Unfolded: the failure with its code, cause, the line that differs and its buttons.
  await chat.getByText(/Completed \d+ steps/).first().click();
  await ui.waitForText(chat.getByText('Differs at:'));
  await ui.waitForText(chat.locator('.monaco-button', { hasText: 'Show envelope' }).first());
  await ui.waitForText(chat.getByText(/INDENTATION line 1 of old_string is indented with 4 spaces where the file has a tab at line 4/).first());
  // A taller window shows the whole failure, from the model's first words to the buttons.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport.width, height: 1250 });
  await chat.getByText('I will double the returned total.').first().evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.mouse.move(5, 5);
  await ui.screenshot('chat-failure', { media: 'media/chat-failure.png' });
  await page.setViewportSize(viewport);

  // A failing /apply in the same chat: its failure and buttons stay in view, with a follow-up.
  const failing = { file_path: file, edits: [{ old_string: '  let sum = 0;', new_string: '  let sum = 1;' }] };
  await send(page, chat, `@multiedit /apply ${JSON.stringify(failing)}`);
  await ui.waitForText(chat.getByText('Ask the model to fix the failing edits'), { timeout: 30_000 });
  await ui.waitForText(chat.locator('.monaco-button', { hasText: 'Re-run the request' }).last());

  await send(page, chat, '@multiedit /explain');
  await ui.waitForText(chat.getByText('The last failure in this chat'), { timeout: 30_000 });
  await ui.waitForText(chat.getByText(/Next step: Correct the failing edits/));

  // Leave the workbench as the next scenario expects it: no chat failure in the Problems panel.
  await page.locator('.part.auxiliarybar .codicon-auxiliarybar-restore, .part.auxiliarybar .codicon-auxiliarybar-maximize').first().click();
  await ui.runCommand('Multi-Edit: Clear Diagnostics');
  fs.rmSync(file);
}
