/**
 * Read-only JSON documents (envelopes, failed requests) served from memory. A
 * content provider's documents cannot be edited or saved, so what the user reads
 * is always what the request and its response were.
 */
import * as vscode from 'vscode';
import { READ_ONLY_SCHEME } from './ids';

/** Documents kept for reopening; the oldest go first. */
const MAX_DOCUMENTS = 100;

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();

  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Shows `content` as a read-only document named `fileName` (its extension picks the language). */
  async show(fileName: string, content: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: READ_ONLY_SCHEME, path: `/${fileName}` });
    const key = uri.toString();
    this.contents.delete(key);
    this.contents.set(key, content);
    for (const stale of [...this.contents.keys()].slice(0, Math.max(0, this.contents.size - MAX_DOCUMENTS))) {
      this.contents.delete(stale);
    }
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerReadOnlyDocuments(context: vscode.ExtensionContext): ReadOnlyDocuments {
  const documents = new ReadOnlyDocuments();
  context.subscriptions.push(documents, vscode.workspace.registerTextDocumentContentProvider(READ_ONLY_SCHEME, documents));
  return documents;
}
