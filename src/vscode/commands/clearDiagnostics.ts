/** Clears every Multi-Edit problem. */
import { COMMANDS } from '../platform/ids';
import type { EditorCommand, EditorDeps } from './editorCommand';

export function clearDiagnosticsCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.clearDiagnostics,
    run(): void {
      deps.feed.failures.clearAll();
    },
  };
}
