/**
 * A test-only extension (never packaged) that registers a language model whose replies come from a
 * script (script.ts), so chat participants can be driven end to end without Copilot or a sign-in.
 * The harness installs it beside Multi-Edit on VS Code versions that have
 * lm.registerLanguageModelChatProvider (1.104 and later).
 *
 * The script is read, at every request, from the JSON file named by MULTI_EDIT_SCRIPTED_MODEL_SCRIPT.
 * activate() returns the requests the model received, for tests to check what it was shown.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { replyTo, SCRIPTED_MODEL_VENDOR, type Message, type MessagePart, type ReceivedRequest, type Script, type ScriptedModelApi } from './script';

const MODEL: vscode.LanguageModelChatInformation & { readonly isUserSelectable: boolean } = {
  id: 'scripted',
  name: 'Scripted Model',
  family: 'scripted',
  version: '1',
  detail: 'tests only',
  maxInputTokens: 1_000_000,
  maxOutputTokens: 100_000,
  capabilities: { toolCalling: true },
  // Shown in the chat view's model picker, so a person (or a UI test) can pick it.
  isUserSelectable: true,
};

function readScript(): Script {
  const file = process.env.MULTI_EDIT_SCRIPTED_MODEL_SCRIPT;
  if (!file || !fs.existsSync(file)) {
    return [];
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Script;
}

function textOf(content: readonly unknown[]): string {
  return content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function toPart(part: unknown): MessagePart[] {
  if (part instanceof vscode.LanguageModelTextPart) {
    return [{ kind: 'text', value: part.value }];
  }
  if (part instanceof vscode.LanguageModelToolCallPart) {
    return [{ kind: 'toolCall', callId: part.callId, name: part.name, input: part.input }];
  }
  if (part instanceof vscode.LanguageModelToolResultPart) {
    return [{ kind: 'toolResult', callId: part.callId, text: textOf(part.content) }];
  }
  return [];
}

function toMessage(message: vscode.LanguageModelChatRequestMessage): Message {
  return {
    role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user',
    parts: message.content.flatMap(toPart),
  };
}

/** Resolves after `ms`, or at once when the request is cancelled. */
function think(ms: number, token: vscode.CancellationToken): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const listener = token.onCancellationRequested(done);
    function done(): void {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
}

export function activate(context: vscode.ExtensionContext): ScriptedModelApi {
  const requests: ReceivedRequest[] = [];
  const provider: vscode.LanguageModelChatProvider = {
    provideLanguageModelChatInformation: () => [MODEL],
    async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
      const received: ReceivedRequest = {
        messages: messages.map(toMessage),
        toolNames: (options.tools ?? []).map((tool) => tool.name),
        toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
        cancelled: false,
      };
      requests.push(received);
      const reply = replyTo(readScript(), received.messages);
      await think(reply.delayMs, token);
      if (token.isCancellationRequested) {
        received.cancelled = true;
        return;
      }
      if (reply.text !== '') {
        progress.report(new vscode.LanguageModelTextPart(reply.text));
      }
      reply.toolCalls.forEach((call, index) => {
        progress.report(new vscode.LanguageModelToolCallPart(`call-${messages.length}-${index}`, call.name, call.input as object));
      });
    },
    provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : JSON.stringify(toMessage(text))).length / 4),
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(SCRIPTED_MODEL_VENDOR, provider));
  return { requests };
}
