/**
 * old_string against the file's text where it came closest, for people: the hover
 * and the compare quick fix show both with whitespace made visible, since most near
 * misses differ only there (tabs against spaces, trailing space, a look-alike space).
 */
import * as vscode from 'vscode';
import type { Failure } from './failure';

/** A space, a tab, a non-breaking space and a carriage return, drawn so they can be seen. */
export function visibleWhitespace(text: string): string {
  return text.replace(/ /g, '·').replace(/\t/g, '→').replace(/\u00a0/g, '⍽').replace(/\r/g, '␍');
}

export interface NearMissComparison {
  readonly oldString: string;
  /** The file's lines where old_string came closest, as many lines as old_string has. */
  readonly fileText: string;
  /** 0-based first line of fileText in the document. */
  readonly firstLine: number;
  readonly uri: vscode.Uri;
}

/** The failed edit's old_string, when the engine parsed the request. */
export function oldStringOf(failure: Failure): string | undefined {
  return failure.editIndex === undefined ? undefined : failure.request.request?.files[failure.fileIndex]?.edits[failure.editIndex]?.old_string;
}

/** old_string and the file's text at the failure's place; undefined unless it is a MATCH_NOT_FOUND placed in a document. */
export function nearMissComparisonOf(failure: Failure, document: vscode.TextDocument): NearMissComparison | undefined {
  const oldString = oldStringOf(failure);
  if (failure.status !== 'failed' || failure.code !== 'MATCH_NOT_FOUND' || oldString === undefined || !failure.placement) {
    return undefined;
  }
  const lines = oldString.split(/\r?\n/).length;
  const firstLine = failure.placement.range.start.line;
  const lastLine = Math.min(document.lineCount - 1, firstLine + lines - 1);
  const range = new vscode.Range(firstLine, 0, lastLine, document.lineAt(lastLine).text.length);
  return { oldString: oldString.replace(/\r\n/g, '\n'), fileText: document.getText(range).replace(/\r\n/g, '\n'), firstLine, uri: document.uri };
}
