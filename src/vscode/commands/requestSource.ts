/**
 * Where applyRequest and previewRequest get their request: a request object passed
 * by another extension, a file (explorer or editor menu, or picked from the
 * workspace), or the JSON in the active editor (its selection when there is one).
 * This is where raw request text comes in; from here on the engine parses it once.
 */
import * as vscode from 'vscode';
import { PATCH_FILE_GLOB, REQUEST_FILE_GLOB } from '../platform/ids';
import { isRecord, TOOL_MULTI_EDIT_PATCH, toolForRequest, type ToolName } from '../../core/index';
import type { RequestOrigin } from '../run/requestRecord';
import { sortedByPath } from './requestFileOrder';

export interface RequestToRun {
  readonly tool: ToolName;
  readonly input: unknown;
  /** The document (and range) the JSON came from; absent for a request object. */
  readonly origin?: RequestOrigin;
}

/** Request files may name their JSON schema; that key describes the file, not the request. */
const SCHEMA_KEY = '$schema';

export function withoutSchemaKey(value: unknown): unknown {
  if (!isRecord(value) || !(SCHEMA_KEY in value)) {
    return value;
  }
  const request: Record<string, unknown> = { ...value };
  delete request[SCHEMA_KEY];
  return request;
}

function isJsonDocument(document: vscode.TextDocument): boolean {
  return document.languageId === 'json' || document.languageId === 'jsonc' || document.fileName.endsWith('.json');
}

/** A .patch or .diff file: its text (or the selection) is one patch. */
function isPatchDocument(document: vscode.TextDocument): boolean {
  return vscode.languages.match({ pattern: `**/${PATCH_FILE_GLOB}` }, document) > 0;
}

function fromDocument(document: vscode.TextDocument, selection?: vscode.Range): RequestToRun | undefined {
  const range = selection && !selection.isEmpty
    ? selection
    : new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
  if (isPatchDocument(document)) {
    return { tool: TOOL_MULTI_EDIT_PATCH, input: { patch: document.getText(range) }, origin: { uri: document.uri, range } };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(document.getText(range));
  } catch (error) {
    const what = selection && !selection.isEmpty ? vscode.l10n.t('The selection') : vscode.workspace.asRelativePath(document.uri);
    void vscode.window.showErrorMessage(vscode.l10n.t('Multi-Edit: {0} is not valid JSON ({1}).', what, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  const input = withoutSchemaKey(parsed);
  return { tool: toolForRequest(input), input, origin: { uri: document.uri, range } };
}

async function pickRequestFile(): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles(`**/${REQUEST_FILE_GLOB}`, '**/node_modules/**', 500);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Multi-Edit: open a request first: a {0} file, or select the request\'s JSON in an editor.', REQUEST_FILE_GLOB),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    sortedByPath(files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))),
    { title: vscode.l10n.t('Multi-Edit: pick a request file'), placeHolder: REQUEST_FILE_GLOB },
  );
  return picked?.uri;
}

/** The request a command runs, found as described above; undefined (after telling the user) when there is none. */
export async function requestToRun(argument: unknown): Promise<RequestToRun | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (argument instanceof vscode.Uri) {
    const sameEditor = editor?.document.uri.toString() === argument.toString();
    return fromDocument(sameEditor ? editor.document : await vscode.workspace.openTextDocument(argument), sameEditor ? editor.selection : undefined);
  }
  if (isRecord(argument)) {
    const input = withoutSchemaKey(argument);
    return { tool: toolForRequest(input), input };
  }
  if (editor && (isJsonDocument(editor.document) || isPatchDocument(editor.document))) {
    return fromDocument(editor.document, editor.selection);
  }
  const file = await pickRequestFile();
  return file && fromDocument(await vscode.workspace.openTextDocument(file));
}
