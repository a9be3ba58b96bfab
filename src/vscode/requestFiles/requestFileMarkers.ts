/**
 * Markers in the request file the user ran: each failed edit is marked on its own
 * old_string, each skipped edit on its own as information, a failed file on its
 * file_path, and every VALIDATION_FAILED issue on the field it names. They follow
 * the JSON as the file is edited, and clear when the request runs again.
 */
import * as vscode from 'vscode';
import { answersForOneFile, type ErrorCode, type ErrorEnvelope, errorDocLink, failureEntries, type FailureEntry, userChoseOutcome } from '../../core/index';
import { REQUEST_MARKER_SOURCE } from '../platform/ids';
import type { Services } from '../run/services';
import { diagnosticMessage } from '../problems/message';
import type { RequestRecord } from '../run/requestRecord';
import { type JsonPath, locateJsonPath } from './jsonLocate';
import { type NearMissFix, nearMissFixFor } from './nearMissFix';


/** Codes not worth a marker: the user chose them. */

export interface RequestMarker {
  readonly path: JsonPath;
  readonly severity: vscode.DiagnosticSeverity;
  readonly code: ErrorCode;
  readonly message: string;
  /** What a quick fix on it rewrites in the request, for a near miss that has one. */
  readonly fix?: NearMissFix;
  /** A patch file: the 1-based line of the patch the problem is at (the JSON path says nothing there). */
  readonly patchLine?: number;
}

/** The patch line of a file operation, or of one of its hunks, in a patch request. */
function patchLineOf(record: RequestRecord, fileIndex: number | undefined, editIndex?: number): number | undefined {
  const file = record.request?.files[fileIndex ?? 0];
  return (editIndex === undefined ? undefined : file?.hunks?.[editIndex]?.patchLine) ?? file?.patchLine;
}

function filePrefix(record: RequestRecord, fileIndex: number | undefined): JsonPath {
  return answersForOneFile(record.tool) ? [] : ['files', fileIndex ?? 0];
}

/** Where each problem of a failed request sits in its JSON, and what it says there (in people's words). */
export function requestMarkers(record: RequestRecord, envelope: ErrorEnvelope): RequestMarker[] {
  const multiFile = !answersForOneFile(record.tool);
  const marker = (path: JsonPath, severity: vscode.DiagnosticSeverity, code: ErrorCode, message: string): RequestMarker => ({ path, severity, code, message });
  if (envelope.validation_issues && envelope.validation_issues.length > 0) {
    return envelope.validation_issues.map((issue) => ({
      ...marker(issue.path, vscode.DiagnosticSeverity.Error, envelope.error_code, `${issue.field}: ${issue.message}`),
      ...(issue.patch_line !== undefined ? { patchLine: issue.patch_line } : {}),
    }));
  }
  return failureEntries(envelope).map((entry) => {
    const { fileIndex, editIndex, diagnosis } = entry;
    const failed = entry.status === 'failed';
    const message = diagnosticMessage({
      ...(editIndex !== undefined ? { editIndex } : {}),
      ...(multiFile && (editIndex !== undefined || envelope.file_index !== undefined) ? { fileNumber: fileIndex + 1 } : {}),
      label: failed ? entry.code : vscode.l10n.t('skipped'),
      message: entry.message,
      ...(diagnosis ? { diagnosis } : {}),
      hints: [],
    });
    const patchLine = patchLineOf(record, fileIndex, editIndex);
    if (editIndex === undefined) {
      return { ...marker(wholeFailurePath(record, envelope, entry), vscode.DiagnosticSeverity.Error, entry.code, message), ...(patchLine !== undefined ? { patchLine } : {}) };
    }
    const editPath = [...filePrefix(record, fileIndex), 'edits', editIndex];
    const fix = failed && patchLine === undefined ? nearMissFixFor(diagnosis, editPath, entry.filePath) : undefined;
    return {
      ...marker([...editPath, 'old_string'], failed ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Information, entry.code, message),
      ...(fix ? { fix } : {}),
      ...(patchLine !== undefined ? { patchLine } : {}),
    };
  });
}

/** Where the failure of a whole file (or request) is marked: on the field it concerns. */
function wholeFailurePath(record: RequestRecord, envelope: ErrorEnvelope, entry: FailureEntry): JsonPath {
  const multiFile = !answersForOneFile(record.tool);
  const ofRequest = multiFile && envelope.file_index === undefined;
  if (entry.code === 'EMPTY_EDITS') {
    return ofRequest ? ['files'] : [...filePrefix(record, entry.fileIndex), 'edits'];
  }
  return ofRequest ? [] : [...filePrefix(record, entry.fileIndex), 'file_path'];
}

/** The range of `path` in the request's JSON, which starts at `base` in `document`; a field that is missing marks the first line of its parent. */
export function markerRange(document: vscode.TextDocument, base: number, json: string, path: JsonPath): vscode.Range {
  const span = locateJsonPath(json, path);
  if (!span) {
    return document.lineAt(document.positionAt(base).line).range;
  }
  const start = document.positionAt(base + (span.exact && span.key ? span.key.start : span.start));
  const end = document.positionAt(base + span.end);
  return span.exact || start.line === end.line ? new vscode.Range(start, end) : new vscode.Range(start, document.lineAt(start.line).range.end);
}

/** A line of a patch that starts at `base` in `document`, clamped to the document. */
function patchLineRange(document: vscode.TextDocument, base: number, patchLine: number): vscode.Range {
  const line = Math.min(document.positionAt(base).line + patchLine - 1, document.lineCount - 1);
  return document.lineAt(line).range;
}

interface MarkedRequest {
  readonly record: RequestRecord;
  readonly markers: readonly RequestMarker[];
  /** The request was the whole document, so its markers can be placed again after edits. */
  readonly wholeDocument: boolean;
}

export class RequestFileMarkers implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(REQUEST_MARKER_SOURCE);
  private readonly marked = new Map<string, MarkedRequest>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscriptions: vscode.Disposable[];

  /** Fires when the last outcome of a request file changes (for its CodeLens). */
  readonly onDidChange = this.changed.event;

  constructor(services: Services) {
    this.subscriptions = [
      this.collection,
      this.changed,
      services.bus.onDidFinish((record) => {
        void this.show(record).catch((error: unknown) => services.log.error(`Could not mark request #${record.id} in its file: ${String(error)}`));
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        const marked = this.marked.get(event.document.uri.toString());
        if (marked?.wholeDocument && event.contentChanges.length > 0) {
          this.place(event.document, marked);
        }
      }),
    ];
  }

  /** The last record of a request run from this document, if any. */
  lastRecord(uri: vscode.Uri): RequestRecord | undefined {
    return this.marked.get(uri.toString())?.record;
  }

  /** The near-miss fixes of the markers in `document` that touch `range`, each with its marker's range. */
  fixesAt(document: vscode.TextDocument, range: vscode.Range): { readonly fix: NearMissFix; readonly range: vscode.Range }[] {
    const marked = this.marked.get(document.uri.toString());
    if (!marked?.wholeDocument) {
      return [];
    }
    const json = document.getText();
    return marked.markers.flatMap((marker) => {
      const markerAt = marker.fix ? markerRange(document, 0, json, marker.path) : undefined;
      return marker.fix && markerAt?.intersection(range) ? [{ fix: marker.fix, range: markerAt }] : [];
    });
  }

  /** Removes every marker; the last outcomes stay for the CodeLens. */
  clearAll(): void {
    for (const [key, marked] of this.marked) {
      this.marked.set(key, { ...marked, markers: [] });
    }
    this.collection.clear();
  }

  private async show(record: RequestRecord): Promise<void> {
    const { origin, response } = record;
    if (!origin) {
      return;
    }
    const document = await vscode.workspace.openTextDocument(origin.uri);
    const failed = !response.success && !userChoseOutcome(response);
    const markers = failed ? requestMarkers(record, response) : [];
    const whole = origin.range.start.isEqual(new vscode.Position(0, 0)) && origin.range.end.isEqual(document.lineAt(document.lineCount - 1).range.end);
    const marked = { record, markers, wholeDocument: whole };
    this.marked.set(origin.uri.toString(), marked);
    this.place(document, marked);
    this.changed.fire(origin.uri);
  }

  private place(document: vscode.TextDocument, marked: MarkedRequest): void {
    const range = marked.wholeDocument ? undefined : marked.record.origin?.range;
    const base = range ? document.offsetAt(range.start) : 0;
    const json = document.getText(range);
    this.collection.set(document.uri, marked.markers.map((marker) => {
      const at = marker.patchLine === undefined ? markerRange(document, base, json, marker.path) : patchLineRange(document, base, marker.patchLine);
      const diagnostic = new vscode.Diagnostic(at, marker.message, marker.severity);
      diagnostic.source = REQUEST_MARKER_SOURCE;
      diagnostic.code = { value: marker.code, target: vscode.Uri.parse(errorDocLink(marker.code)) };
      return diagnostic;
    }));
  }

  dispose(): void {
    vscode.Disposable.from(...this.subscriptions).dispose();
  }
}
