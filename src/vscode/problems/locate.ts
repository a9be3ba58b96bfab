/**
 * Ranges in a document: from an envelope position and the text that starts there, and, when the
 * envelope's positions are not the document's (an earlier edit of the file applied before the
 * failed one was checked, see positionsInFile.ts), a search of the document for old_string.
 */
import * as vscode from 'vscode';
import { LineIndex, locateClosestMatch, withEol } from '../../core/index';

/**
 * One copy of a document's text and one line index per document version, however many
 * failed edits of a request are located in it.
 */
const indexedTexts = new WeakMap<vscode.TextDocument, { readonly version: number; readonly text: string; readonly index: LineIndex }>();

function indexedText(document: vscode.TextDocument): { readonly text: string; readonly index: LineIndex } {
  const cached = indexedTexts.get(document);
  if (cached && cached.version === document.version) {
    return cached;
  }
  const text = document.getText();
  const entry = { version: document.version, text, index: LineIndex.of(text) };
  indexedTexts.set(document, entry);
  return entry;
}

/** old_string with its line breaks turned into the document's, as the engine does before matching. */
export function inDocumentEol(text: string, document: vscode.TextDocument): string {
  return withEol(text, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
}

/** The range that `needle` covers when it starts at `start`, clipped to the document. */
export function spanFrom(document: vscode.TextDocument, start: vscode.Position, needle: string): vscode.Range {
  const from = document.validatePosition(start);
  const to = document.positionAt(document.offsetAt(from) + inDocumentEol(needle, document).length);
  return new vscode.Range(from, to);
}

/** Up to `cap` ranges where `needle` occurs, in order. */
export function occurrences(document: vscode.TextDocument, needle: string, cap: number): vscode.Range[] {
  const { text } = indexedText(document);
  const wanted = inDocumentEol(needle, document);
  const found: vscode.Range[] = [];
  if (wanted.length === 0) {
    return found;
  }
  for (let at = text.indexOf(wanted); at !== -1 && found.length < cap; at = text.indexOf(wanted, at + wanted.length)) {
    found.push(new vscode.Range(document.positionAt(at), document.positionAt(at + wanted.length)));
  }
  return found;
}

/**
 * The closest partial match of `needle` in the document, found the way the engine
 * finds it for the envelope's snippet; undefined when nothing resembles it.
 */
export function closestMatchRange(document: vscode.TextDocument, needle: string): vscode.Range | undefined {
  const { text, index } = indexedText(document);
  const closest = locateClosestMatch(text, index, inDocumentEol(needle, document));
  return closest && new vscode.Range(document.positionAt(closest.offset), document.positionAt(closest.offset + closest.length));
}
