/**
 * The buttons under a failure in the chat: the same quick fixes the Problems panel
 * offers (quickFixesFor), for the failure the envelope leads with, run by the same
 * commands with the same FailureRef argument. Only the fixes that make sense away
 * from the editor are shown; the rest stay on the diagnostic.
 */
import { COMMANDS } from '../../platform/ids';
import { type ErrorEnvelope, isLeadPlace } from '../../../core/index';
import { quickFixesFor } from '../../problems/quickFixes';
import { failureRef, type Failure, type FailureRef } from '../../problems/failure';

/** Structurally a vscode.Command. */
export interface ChatButton {
  readonly title: string;
  readonly command: string;
  readonly arguments: [FailureRef];
}

const CHAT_FIXES: ReadonlySet<string> = new Set<string>([
  COMMANDS.peekMatches, COMMANDS.retryWithReplaceAll, COMMANDS.rerunRequest, COMMANDS.showEnvelope,
]);

/** The failure the envelope's message, hints and context describe; else the first failed one. */
export function leadingFailure(failures: readonly Failure[], envelope: ErrorEnvelope): Failure | undefined {
  const failed = failures.filter((failure) => failure.status === 'failed');
  return failed.find((failure) => isLeadPlace(envelope, failure.fileIndex, failure.editIndex)) ?? failed[0];
}

/** `failures` are the shown failures of the request that produced `envelope`. */
export function chatButtons(failures: readonly Failure[], envelope: ErrorEnvelope): ChatButton[] {
  const failure = leadingFailure(failures, envelope);
  if (!failure) {
    return [];
  }
  return quickFixesFor(failure)
    .filter((fix) => CHAT_FIXES.has(fix.command))
    .map((fix) => ({ title: fix.title, command: fix.command, arguments: [failureRef(failure)] }));
}
