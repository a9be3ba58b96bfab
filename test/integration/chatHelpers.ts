// Real chat turns in the extension host: the scripted model (test/scriptedModel) answers, and
// `workbench.action.chat.open` sends a prompt to the chat view and waits for the turn to end.
// VS Code 1.104 added the language-model provider API the scripted model needs; on older versions
// the harness does not install it and these tests are skipped.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { SCRIPTED_MODEL_EXTENSION_ID, SCRIPTED_MODEL_VENDOR, type ReceivedRequest, type Script, type ScriptedModelApi } from '../scriptedModel/script';

const FIRST_VERSION_WITH_PROVIDERS = [1, 104];
const TURN_TIMEOUT_MS = 20_000;

/** What `workbench.action.chat.open` resolves with when it blocks on the response. */
export interface ChatTurnResult extends vscode.ChatResult {
  /** Set when the turn waits for the user, e.g. to confirm a tool call. */
  readonly type?: 'confirmation';
  readonly kind?: string;
  readonly toolId?: string;
}

export function hasModelProviderApi(): boolean {
  const [major, minor] = vscode.version.split('.').map(Number);
  return major > FIRST_VERSION_WITH_PROVIDERS[0] || (major === FIRST_VERSION_WITH_PROVIDERS[0] && minor >= FIRST_VERSION_WITH_PROVIDERS[1]);
}

/** The scripted model's record of requests; skips the test where VS Code cannot host the model. */
export async function scriptedModel(test: Mocha.Context): Promise<ScriptedModelApi> {
  if (!hasModelProviderApi()) {
    test.skip();
  }
  const extension = vscode.extensions.getExtension<ScriptedModelApi>(SCRIPTED_MODEL_EXTENSION_ID);
  assert.ok(extension, `the harness installs ${SCRIPTED_MODEL_EXTENSION_ID} on VS Code ${vscode.version}`);
  const api = await extension.activate();
  api.requests.length = 0;
  return api;
}

/** What the model replies from now on. */
export function useScript(script: Script): void {
  const file = process.env.MULTI_EDIT_SCRIPTED_MODEL_SCRIPT;
  assert.ok(file, 'the runner sets MULTI_EDIT_SCRIPTED_MODEL_SCRIPT');
  fs.writeFileSync(file, JSON.stringify(script));
}

function withTimeout<T>(promise: Thenable<T>, what: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Sends `query` from a new chat, with the scripted model picked, and resolves when the turn ends
 * or waits for a confirmation. Each test starts a new chat, so no earlier turn is in its history.
 */
export async function sendChat(query: string, { newChat = true, toolIds }: { newChat?: boolean; toolIds?: string[] } = {}): Promise<ChatTurnResult> {
  if (newChat) {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  }
  const turn = vscode.commands.executeCommand<ChatTurnResult | undefined>('workbench.action.chat.open', {
    query,
    isPartialQuery: false,
    blockOnResponse: true,
    modelSelector: { vendor: SCRIPTED_MODEL_VENDOR },
    ...(toolIds ? { toolIds } : {}),
  });
  const result = await withTimeout(turn, `the chat turn "${query.slice(0, 60)}"`, TURN_TIMEOUT_MS);
  assert.ok(result, 'the chat view returned the turn\'s result');
  return result;
}

/** The texts of the tool results the model was given in `request`, oldest first. */
export function toolResultsSeen(request: ReceivedRequest): string[] {
  return request.messages.flatMap((message) => message.parts.flatMap((part) => (part.kind === 'toolResult' ? [part.text] : [])));
}
