/** The `@multiedit` chat participant: `/apply`, `/preview`, `/explain`, a conversation with the model, and follow-ups. */
import * as vscode from 'vscode';
import { CHAT_COMMANDS, CHAT_PARTICIPANT_ID } from '../platform/ids';
import type { FailureFeed } from '../problems/failureFeed';
import type { Services } from '../run/services';
import type { ChatDeps } from './chatDeps';
import { followupsFor, type RequestCommand } from './turnMetadata';
import { converse } from './conversation/conversation';
import { runExplainCommand } from './slashCommands/explainCommand';
import { runRequestCommand } from './slashCommands/requestCommand';

function isRequestCommand(command: string | undefined): command is RequestCommand {
  return command === CHAT_COMMANDS.apply || command === CHAT_COMMANDS.preview;
}

export function registerChatParticipant(context: vscode.ExtensionContext, services: Services, feed: FailureFeed): void {
  const deps: ChatDeps = { services, feed };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, async (request, chatContext, stream, token) => {
    if (request.command === CHAT_COMMANDS.explain) {
      return runExplainCommand(chatContext, stream);
    }
    return isRequestCommand(request.command)
      ? runRequestCommand(deps, request.command, request, stream, token)
      : converse(deps, request, chatContext, stream, token);
  });
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = { provideFollowups: (result) => followupsFor(result.metadata) };
  context.subscriptions.push(participant);
}
