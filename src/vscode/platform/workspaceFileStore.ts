/**
 * The FileStore over VS Code's documents: reads go through openTextDocument, so an
 * unsaved editor buffer is what gets edited. Stats, a closed file's bytes and directory
 * listings come from the local file system (a file: URI names the extension host's own
 * disk), with no round trip to the workbench. A commit is one WorkspaceEdit applied
 * with one applyEdit (one undo step, all files or none), after every document's
 * version has been re-checked. Commits that share a document take turns, so the
 * re-check and the edit it guards are one step for every other request.
 * Not translated: its failure details become the envelope's message, read by models in the core's language.
 */
import { promises as fs, type Stats } from 'node:fs';
import * as vscode from 'vscode';
import { type CancellationSignal, type FileKind, type FileStat, type FileStore, type PlannedChange, type PlannedUpdate, type StoredText, type StoreFailure, storeFailureFromError, type StoreResult } from '../../core/index';
import { withDocumentLocks } from '../../shared/documentLocks';
import { foldedName, nameRulesFor } from '../../shared/nameRules';
import { shouldSaveAfterEdit, type SaveAfterEdit } from './settings';

/** Test seam: runs between planning and commit, e.g. to change a document behind the engine's back. */
export interface StoreHooks {
  beforeCommit?: (changes: readonly PlannedChange[], cancellation: CancellationSignal | undefined) => void | Promise<void>;
}

/** The user's verdict on a commit they review: ok when every change was applied, USER_DENIED otherwise. */
export type ReviewResult = StoreResult<void>;

export interface WorkspaceFileStoreOptions {
  readonly saveAfterEdit: SaveAfterEdit;
  /**
   * Shows the changes for the user to apply (the Refactor Preview) instead of applying
   * them; runs after the version check, under the documents' turn, before saving.
   */
  readonly review?: () => Promise<ReviewResult>;
  readonly displayPath: (absolutePath: string) => string;
  readonly cancellation?: CancellationSignal;
  readonly hooks?: StoreHooks;
  readonly log?: vscode.LogOutputChannel;
}

/** The version token a read hands out and a commit checks. */
interface DocumentVersion {
  readonly document: vscode.TextDocument;
  readonly version: number;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function fail(code: StoreFailure['code'], detail: string): StoreFailure {
  return { ok: false, code, detail };
}

function isDocumentVersion(value: unknown): value is DocumentVersion {
  const candidate = value as Partial<DocumentVersion> | undefined;
  return typeof candidate?.version === 'number' && typeof candidate.document?.getText === 'function';
}

function hasBom(bytes: Uint8Array): boolean {
  return UTF8_BOM.every((byte, index) => bytes[index] === byte);
}

function encodingProblem(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) {
    return 'the file contains NUL bytes, so it is binary';
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    return 'the file is not valid UTF-8';
  }
}

export class WorkspaceFileStore implements FileStore {
  constructor(private readonly options: WorkspaceFileStoreOptions) {}

  async stat(path: string): Promise<StoreResult<FileStat>> {
    try {
      const stats = await fs.stat(path);
      return { ok: true, value: { kind: kindOf(stats), size: stats.size, identity: identityOf(stats) } };
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
  }

  /** The engine has stat'ed the path and applied the size limit just before; a directory still fails in readFile. */
  async read(path: string): Promise<StoreResult<StoredText>> {
    const uri = vscode.Uri.file(path);
    const open = openUtf8Document(uri);
    if (open) {
      const text = open.getText();
      return text.includes('\0')
        ? fail('INVALID_ENCODING', 'the file contains NUL bytes, so it is binary')
        : { ok: true, value: { text, bom: open.encoding === 'utf8bom', version: { document: open, version: open.version } } };
    }
    let read: BytesRead;
    try {
      read = await readBytes(path);
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
    const problem = encodingProblem(read.bytes);
    if (problem !== undefined) {
      return fail('INVALID_ENCODING', problem);
    }
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch {
      return unopenedAfterRead(path, read.identity);
    }
    const version: DocumentVersion = { document, version: document.version };
    return { ok: true, value: { text: document.getText(), bom: hasBom(read.bytes), version } };
  }

  /** The entries of a directory, so a missing file's envelope can name the closest ones. */
  async listNames(directory: string): Promise<StoreResult<readonly string[]>> {
    try {
      return { ok: true, value: await fs.readdir(directory) };
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
  }

  async commit(changes: readonly PlannedChange[]): Promise<StoreResult<void>> {
    await this.options.hooks?.beforeCommit?.(changes, this.options.cancellation);
    return withDocumentLocks(changes.flatMap(lockKeys).map(byNameRules), () => this.commitInTurn(changes));
  }

  /**
   * Re-checks every version (and that each path to create is free), applies the edit
   * and saves while no other request of this host can commit to these documents, so
   * each sees the others' results whole.
   */
  private async commitInTurn(changes: readonly PlannedChange[]): Promise<StoreResult<void>> {
    if (this.options.cancellation?.isCancellationRequested) {
      return fail('CANCELLED', 'the request was cancelled before anything was written');
    }
    const writes = changes.filter((change): change is PlannedUpdate => change.kind === 'update');
    const documents: vscode.TextDocument[] = [];
    for (const write of writes) {
      const current = await this.currentDocument(write);
      if (!current.ok) {
        return current;
      }
      documents.push(current.value);
    }
    const operations = await this.fileOperations(changes);
    if (!operations.ok) {
      return operations;
    }
    const wasDirty = documents.map((document) => document.isDirty);
    const applied = this.options.review ? await this.options.review() : await this.applyWrites(writes, documents, operations.value);
    if (!applied.ok) {
      return applied;
    }
    await this.saveAfterEdit(documents.filter((document, index) => shouldSaveAfterEdit(this.options.saveAfterEdit, wasDirty[index]) && document.isDirty));
    return { ok: true, value: undefined };
  }

  /**
   * The file operations of a commit (a patch's added, deleted and moved files), as
   * entries of the same WorkspaceEdit, once each is checked again: a file to remove
   * still holds the text it was planned from, and a path to create is still free. A
   * moved file is created with its new text and its old path deleted, so the edit
   * stays one undo step.
   */
  private async fileOperations(changes: readonly PlannedChange[]): Promise<StoreResult<((edit: vscode.WorkspaceEdit) => void)[]>> {
    const entries: ((edit: vscode.WorkspaceEdit) => void)[] = [];
    for (const change of changes) {
      if (change.kind === 'update') {
        continue;
      }
      const removed = change.kind === 'add' ? undefined : await this.currentDocument({ path: change.kind === 'move' ? change.from : change.path, original: change.original });
      if (removed && !removed.ok) {
        return removed;
      }
      if (change.kind !== 'delete') {
        const taken = await this.stat(change.path);
        if (taken.ok) {
          return { ...fail('FILE_EXISTS', `${this.options.displayPath(change.path)} was created after the plan was made`), path: change.path };
        }
        const contents = storedBytes(change.text, change.bom);
        entries.push((edit) => edit.createFile(vscode.Uri.file(change.path), { overwrite: false, contents }));
      }
      if (removed) {
        entries.push((edit) => edit.deleteFile(removed.value.uri, { ignoreIfNotExists: false }));
      }
    }
    return { ok: true, value: entries };
  }

  private async applyWrites(
    writes: readonly PlannedUpdate[], documents: readonly vscode.TextDocument[], operations: readonly ((edit: vscode.WorkspaceEdit) => void)[],
  ): Promise<StoreResult<void>> {
    const checkedVersions = documents.map((document) => document.version);
    const edit = new vscode.WorkspaceEdit();
    writes.forEach((write, index) => this.addReplacement(edit, documents[index], write));
    operations.forEach((addOperation) => addOperation(edit));
    if (edit.size === 0) {
      return { ok: true, value: undefined };
    }
    const applied = await this.apply(edit);
    if (applied.ok) {
      return applied;
    }
    // VS Code refuses an edit whose document moved on; another extension or the user edited it meanwhile.
    const moved = documents.findIndex((document, index) => document.version !== checkedVersions[index]);
    return moved === -1 ? applied : fail('STALE_CONTENT', `${this.options.displayPath(writes[moved].path)} changed while the edit was being applied`);
  }

  /** The document to edit, or STALE_CONTENT when it changed since it was read. */
  private async currentDocument(write: Pick<PlannedUpdate, 'path' | 'original'>): Promise<StoreResult<vscode.TextDocument>> {
    const token = write.original.version;
    const shown = this.options.displayPath(write.path);
    if (!isDocumentVersion(token)) {
      return fail('INTERNAL_ERROR', `${shown} was not read through this store`);
    }
    if (!token.document.isClosed) {
      return token.document.version === token.version
        ? { ok: true, value: token.document }
        : fail('STALE_CONTENT', `${shown} changed after it was read (document version ${token.version}, now ${token.document.version})`);
    }
    // The document was closed and reopened since the read: its text is the only reliable witness.
    let reopened: vscode.TextDocument;
    try {
      reopened = await vscode.workspace.openTextDocument(vscode.Uri.file(write.path));
    } catch {
      return fail('STALE_CONTENT', `${shown} could not be reopened after it was read`);
    }
    return reopened.getText() === write.original.text
      ? { ok: true, value: reopened }
      : fail('STALE_CONTENT', `${shown} changed after it was read`);
  }

  /**
   * The engine's spans, as they are: the document holds the text they were planned on (its
   * version was just checked). A change without spans replaces the whole text.
   */
  private addReplacement(edit: vscode.WorkspaceEdit, document: vscode.TextDocument, write: PlannedUpdate): void {
    const spans = write.spans ?? [{ start: 0, end: write.original.text.length, text: write.text }];
    for (const span of spans) {
      edit.replace(document.uri, new vscode.Range(document.positionAt(span.start), document.positionAt(span.end)), span.text);
    }
  }

  private async apply(edit: vscode.WorkspaceEdit): Promise<StoreResult<void>> {
    let applied: boolean;
    try {
      applied = await vscode.workspace.applyEdit(edit);
    } catch {
      applied = false;
    }
    return applied ? { ok: true, value: undefined } : fail('WRITE_FAILED', 'VS Code did not apply the edit');
  }

  /** A failed save leaves the edit in the (dirty) buffer, where undo still works, so it is logged, not reported. */
  private async saveAfterEdit(documents: readonly vscode.TextDocument[]): Promise<void> {
    // A save that rejects (not only one that answers false) still leaves the applied edit in the buffer.
    const saved = await Promise.all(documents.map((document) => document.save().then((ok) => ok, () => false)));
    saved.forEach((ok, index) => {
      if (!ok) {
        this.options.log?.warn(`Edited ${this.options.displayPath(documents[index].uri.fsPath)} but could not save it; the change is in the unsaved buffer`);
      }
    });
  }
}

/** A created file's bytes: UTF-8, with the BOM the file had. */
export function storedBytes(text: string, bom: boolean): Uint8Array {
  return new TextEncoder().encode(`${bom ? '\uFEFF' : ''}${text}`);
}

/**
 * The document, when an editor holds it open and decoded it as UTF-8: its text and its
 * encoding (with or without a BOM) are known, so the file need not be read again. An
 * open `Foo.ts` is the file a request names `foo.ts` where the file system ignores
 * case: documents are compared as the file system compares names (nameRules.ts).
 */
function openUtf8Document(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = byNameRules(uri.fsPath);
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.scheme === 'file' && byNameRules(candidate.uri.fsPath) === key);
  return document && (document.encoding === 'utf8' || document.encoding === 'utf8bom') ? document : undefined;
}

/** A path in the form every name of one file takes on its file system (the rules probed once per device). */
function byNameRules(fsPath: string): string {
  return foldedName(fsPath, nameRulesFor(fsPath));
}

/** Requests that touch the same document share its path, whichever way it was spelled (byNameRules folds it); a path to create is keyed by itself. */
function lockKeys(change: PlannedChange): string[] {
  const created = change.path;
  if (change.kind === 'add') {
    return [created];
  }
  const token = change.original.version;
  const read = isDocumentVersion(token) ? token.document.uri.fsPath : change.kind === 'move' ? change.from : change.path;
  return change.kind === 'move' ? [read, created] : [read];
}

/** A FIFO, socket or device is neither a file nor a directory. */
function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

interface BytesRead {
  readonly bytes: Uint8Array;
  /** The file the bytes came from, taken from the same handle. */
  readonly identity: string;
}

async function readBytes(path: string): Promise<BytesRead> {
  const handle = await fs.open(path, 'r');
  try {
    const identity = identityOf(await handle.stat());
    return { bytes: await handle.readFile(), identity };
  } finally {
    await handle.close();
  }
}

/**
 * Why VS Code could not open a file that was just read: another process removed or replaced
 * it in between (its code then says so, and a fresh read is the way on), or VS Code itself
 * refused a file that is still the one read.
 */
async function unopenedAfterRead(path: string, identityRead: string): Promise<StoreFailure> {
  let now: Stats;
  try {
    now = await fs.stat(path);
  } catch (error) {
    return storeFailureFromError(error, 'read');
  }
  return identityOf(now) === identityRead
    ? fail('INTERNAL_ERROR', 'the file could not be opened as a text document')
    : fail('STALE_CONTENT', 'the file was replaced while it was being read; read it again');
}

function kindOf(stats: Stats): FileKind {
  if (stats.isDirectory()) {
    return 'directory';
  }
  return stats.isFile() ? 'file' : 'other';
}
