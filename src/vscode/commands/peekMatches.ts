/** Peek all match locations: VS Code's peek view over every reported match of the failed edit. */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';

export function peekMatchesCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.peekMatches,
    /** Resolves to the number of locations shown. */
    async run(argument: unknown): Promise<number> {
      const placement = failureFromArgument(deps, argument)?.placement;
      if (!placement) {
        return 0;
      }
      const locations = placement.matches.length > 0 ? placement.matches : [new vscode.Location(placement.uri, placement.range)];
      const first = locations[0];
      await vscode.window.showTextDocument(first.uri, { selection: first.range });
      await vscode.commands.executeCommand('editor.action.peekLocations', first.uri, first.range.start, locations, 'peek');
      return locations.length;
    },
  };
}
