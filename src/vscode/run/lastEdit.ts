/**
 * The last request that changed files, and whether it was undone since: the "Undo Last
 * Request" command takes it back, and the status bar stops counting its edits once the
 * user undid it (with that command, a notification's Undo, or the editor's own Undo).
 * It knows the request by its request_id, as the request history does: an undo in the
 * editor is told to the history, and an undo from the history is told here.
 */
import * as vscode from 'vscode';
import { pathKey } from '../platform/workspacePaths';
import type { RequestBus, RequestRecord } from './requestRecord';

interface EditedFile {
  readonly path: string;
  readonly document: vscode.TextDocument;
  /**
   * The document's version right after the request: cheaper to keep than its text, and
   * every change since (an undo included) moves it on.
   */
  readonly after: number;
}

interface LastRequestEdit {
  readonly requestId: number;
  /** Its request_id in the request history. */
  readonly historyId?: string;
  readonly files: readonly EditedFile[];
  undone: boolean;
}

export type UndoOutcome = 'undone' | 'nothing' | 'changed';

function openDocument(path: string): vscode.TextDocument | undefined {
  const key = pathKey(path);
  return vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && pathKey(document.uri.fsPath) === key);
}

export class LastEdit implements vscode.Disposable {
  private last: LastRequestEdit | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];

  /** Fires when a request changed files, or when the last one was undone. */
  readonly onDidChange = this.changed.event;

  /** `onUndone`: told the request_id of the last request when the editor's undo took it back. */
  constructor(bus: RequestBus, private readonly onUndone: (historyId: string) => void = () => undefined) {
    this.subscriptions = [
      bus.onDidFinish((record) => this.remember(record)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.reason === vscode.TextDocumentChangeReason.Undo) {
          this.noticeUndo(event.document);
        }
      }),
    ];
  }

  /** Whether request `requestId` changed files and was undone since. */
  isUndone(requestId: number): boolean {
    return this.last?.requestId === requestId && this.last.undone;
  }

  /** The request_id of the last request that changed files, when it is not undone. */
  get historyId(): string | undefined {
    return this.last && !this.last.undone ? this.last.historyId : undefined;
  }

  /** Request `historyId` was undone from the history: when it is the last one, it is counted undone. */
  noteUndoneFromHistory(historyId: string): void {
    if (this.last && !this.last.undone && this.last.historyId === historyId) {
      this.last.undone = true;
      this.changed.fire();
    }
  }

  /** VS Code's undo on the request's first file, which takes back the whole request (one undo step across files). */
  async undo(): Promise<UndoOutcome> {
    const last = this.last;
    if (!last || last.undone || last.files.length === 0) {
      return 'nothing';
    }
    if (last.files.some((file) => file.document.isClosed || file.document.version !== file.after)) {
      return 'changed';
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(last.files[0].path));
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    return last.undone ? 'undone' : 'changed';
  }

  private remember(record: RequestRecord): void {
    const { response } = record;
    if (!response.success || response.dry_run) {
      return;
    }
    const files = response.files.flatMap((file) => {
      const document = openDocument(file.file_path);
      return document ? [{ path: file.file_path, document, after: document.version }] : [];
    });
    this.last = { requestId: record.id, ...(response.request_id !== undefined ? { historyId: response.request_id } : {}), files, undone: false };
    this.changed.fire();
  }

  /**
   * An undo that is the document's first change since the request takes the request back (it
   * was the top of the undo stack). After other changes, an undo takes those back first, and the
   * request is then left counted.
   */
  private noticeUndo(document: vscode.TextDocument): void {
    const last = this.last;
    if (!last || last.undone) {
      return;
    }
    const file = last.files.find((candidate) => candidate.document === document);
    if (file && document.version === file.after + 1) {
      last.undone = true;
      this.changed.fire();
      if (last.historyId !== undefined) {
        this.onUndone(last.historyId);
      }
    }
  }

  dispose(): void {
    vscode.Disposable.from(this.changed, ...this.subscriptions).dispose();
  }
}
