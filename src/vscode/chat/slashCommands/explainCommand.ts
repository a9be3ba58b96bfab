/**
 * `/explain`: the latest failure of this chat, from `/apply`, `/preview` or a tool call of a
 * conversation (each turn's ChatResult.metadata keeps them), shown in full with the next step.
 * No language model is involved.
 */
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT_NAME } from '../../platform/ids';
import { isTurnMetadata, type TurnMetadata } from '../turnMetadata';
import { latestFailure, renderExplanation } from '../conversation/recap';
import { writeParts } from '../render/stream';

function modelTextsOf(metadata: TurnMetadata): string[] {
  if (metadata.kind === 'request') {
    return [metadata.modelText];
  }
  return metadata.calls.flatMap((call) => (call.modelText === undefined ? [] : [call.modelText]));
}

export function runExplainCommand(context: vscode.ChatContext, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const texts = context.history.flatMap((turn) => {
    const metadata: unknown = turn instanceof vscode.ChatResponseTurn ? turn.result.metadata : undefined;
    return isTurnMetadata(metadata) ? modelTextsOf(metadata) : [];
  });
  const envelope = latestFailure(texts);
  if (!envelope) {
    stream.markdown(vscode.l10n.t('No request has failed in this chat yet. Run one with {0}, or ask for a change, then {1} shows its failure.', `\`@${CHAT_PARTICIPANT_NAME} /apply\``, '`/explain`'));
    return {};
  }
  writeParts(stream, renderExplanation(envelope));
  return {};
}
