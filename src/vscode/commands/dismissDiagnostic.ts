/** Dismiss: removes one problem (and the skipped edits that wait for it). */
import { COMMANDS } from '../platform/ids';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';

export function dismissDiagnosticCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.dismissDiagnostic,
    run(argument: unknown): void {
      const failure = failureFromArgument(deps, argument);
      if (failure) {
        deps.feed.failures.dismiss(failure.id);
      }
    },
  };
}
