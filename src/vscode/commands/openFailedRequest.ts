/**
 * Open the failed request: the file (or selection) it was run from when there is
 * one, with the failing edit's old_string (or the failing file's file_path)
 * selected, so it can be fixed and run again. A request from a tool call or chat
 * has no file: it is shown as read-only JSON with a comment above the failing
 * edit, which is selected, or by its envelope when it did not parse.
 */
import * as vscode from 'vscode';
import { answersForOneFile, type MultiEditFilesRequest, type MultiEditRequest, requestInput } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import type { Failure } from '../problems/failure';
import { markerRange } from '../requestFiles/requestFileMarkers';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';

/** Stands in for the failing edit while the rest of the request is laid out (not translated: replaced before it is shown). */
const PLACEHOLDER = JSON.stringify('\u0000multi-edit: the failing edit\u0000');

export interface RenderedRequest {
  readonly text: string;
  /** Offsets of the marked edit in `text`. */
  readonly marked?: { readonly start: number; readonly end: number };
}

/** The list and index holding the failing part: the edit, or for a whole-file failure the file entry. */
function failingSlot(failure: Failure, input: MultiEditRequest | MultiEditFilesRequest): { list: unknown[]; index: number } | undefined {
  const files = 'files' in input ? input.files : undefined;
  const file = !answersForOneFile(failure.request.tool) ? files?.[failure.fileIndex] : ('edits' in input ? input : undefined);
  if (failure.editIndex === undefined) {
    return files && failure.fileIndex < files.length ? { list: files, index: failure.fileIndex } : undefined;
  }
  return file && failure.editIndex < file.edits.length ? { list: file.edits, index: failure.editIndex } : undefined;
}

function markLabel(failure: Failure): string {
  const what = failure.editIndex === undefined ? `File ${failure.fileIndex + 1}` : `Edit ${failure.editIndex + 1}`;
  const why = failure.status === 'skipped' ? 'skipped' : failure.code;
  return `${what} · ${why}: ${failure.message.replace(/\s+/g, ' ')}`;
}

export function renderRequest(failure: Failure): RenderedRequest {
  const { request } = failure;
  const header = `// ${vscode.l10n.t('The {0} request that failed with {1} (read-only).', request.tool, request.envelope.error_code)}\n`;
  if (!request.request) {
    const note = `// ${vscode.l10n.t('It did not fit the schema, so only its envelope is kept:')}\n`;
    return { text: `${header}${note}${JSON.stringify(request.envelope, null, 2)}\n` };
  }
  const copy = requestInput(request.request);
  if ('patch' in copy) {
    return { text: `${header}${copy.patch}` };
  }
  const slot = failingSlot(failure, copy);
  if (!slot) {
    return { text: `${header}${JSON.stringify(copy, null, 2)}\n` };
  }
  const failing = slot.list[slot.index];
  slot.list[slot.index] = JSON.parse(PLACEHOLDER);
  const laidOut = `${header}${JSON.stringify(copy, null, 2)}\n`;
  const at = laidOut.indexOf(PLACEHOLDER);
  const indent = laidOut.slice(laidOut.lastIndexOf('\n', at) + 1, at);
  const comment = `// ✗ ${markLabel(failure)}\n${indent}`;
  const body = JSON.stringify(failing, null, 2).replace(/\n/g, `\n${indent}`);
  const start = at + comment.length;
  return {
    text: `${laidOut.slice(0, at)}${comment}${body}${laidOut.slice(at + PLACEHOLDER.length)}`,
    marked: { start, end: start + body.length },
  };
}

export function openFailedRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.openFailedRequest,
    async run(argument: unknown): Promise<vscode.Uri | undefined> {
      const failure = failureFromArgument(deps, argument);
      if (!failure) {
        return undefined;
      }
      const { origin } = failure.request;
      if (origin) {
        const document = await vscode.workspace.openTextDocument(origin.uri);
        const prefix = !answersForOneFile(failure.request.tool) ? ['files', failure.fileIndex] : [];
        const path = failure.editIndex === undefined ? [...prefix, 'file_path'] : [...prefix, 'edits', failure.editIndex, 'old_string'];
        const selection = markerRange(document, document.offsetAt(origin.range.start), document.getText(origin.range), path);
        const editor = await vscode.window.showTextDocument(document, { selection });
        editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        return editor.document.uri;
      }
      const rendered = renderRequest(failure);
      const editor = await deps.documents.show(`request-${failure.request.id}.jsonc`, rendered.text);
      if (rendered.marked) {
        const { document } = editor;
        const range = new vscode.Range(document.positionAt(rendered.marked.start), document.positionAt(rendered.marked.end));
        editor.selection = new vscode.Selection(range.start, range.end);
        editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
      return editor.document.uri;
    },
  };
}
