/**
 * Keeps a failure's ranges on the same text while the user edits elsewhere in the
 * file, and tells when an edit lands on them (touching counts).
 */
import * as vscode from 'vscode';

export type Shifted = { readonly hit: false; readonly range: vscode.Range } | { readonly hit: true };

/** Where a position at or after the end of the replaced range ends up. */
function positionAfter(position: vscode.Position, change: vscode.TextDocumentContentChangeEvent): vscode.Position {
  const replaced = change.range;
  const insertedLines = change.text.split(/\r\n|\r|\n/);
  const lastInserted = insertedLines[insertedLines.length - 1].length;
  const endLine = replaced.start.line + insertedLines.length - 1;
  if (position.line > replaced.end.line) {
    return new vscode.Position(position.line - replaced.end.line + endLine, position.character);
  }
  const endCharacter = insertedLines.length === 1 ? replaced.start.character + lastInserted : lastInserted;
  return new vscode.Position(endLine, endCharacter + position.character - replaced.end.character);
}

export function shiftRange(range: vscode.Range, change: vscode.TextDocumentContentChangeEvent): Shifted {
  if (change.range.start.isAfter(range.end)) {
    return { hit: false, range };
  }
  if (change.range.end.isBefore(range.start)) {
    return { hit: false, range: new vscode.Range(positionAfter(range.start, change), positionAfter(range.end, change)) };
  }
  return { hit: true };
}
