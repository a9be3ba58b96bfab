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
import { type CancellationSignal, isNotebookPath, type FileKind, type FileStat, type FileStore, type PlannedChange, type PlannedUpdate, type StoredText, type StoreFailure, storeFailureFromError, type StoreResult } from '../../core/index';
import { withDocumentLocks } from '../../shared/documentLocks';
import { pathKey } from './workspacePaths';
import { shouldSaveAfterEdit, type SaveAfterEdit } from './settings';
import { chooseEncoding, roundTripProblem, storedEncoding, vscodeEncodingId, writesByteOrderMark } from './documentEncoding';
import { confirmSavedAt, placeOf, type FilePlace } from './savedWhere';
import { cellReplacements, isNotebookVersion, notebookAsOpen, openNotebookOf } from './openNotebooks';

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
  /** Where the file was when it was read: a save must land there (savedWhere.ts). */
  readonly place?: FilePlace;
}

function fail(code: StoreFailure['code'], detail: string): StoreFailure {
  return { ok: false, code, detail };
}

function isDocumentVersion(value: unknown): value is DocumentVersion {
  const candidate = value as Partial<DocumentVersion> | undefined;
  return typeof candidate?.version === 'number' && typeof candidate.document?.getText === 'function';
}

/** A document's text as the engine edits it, in the document's own encoding. */
/** `place`: where the file was when it was read, which a save must land on (savedWhere.ts). */
function storedTextOf(document: vscode.TextDocument, text: string, place: FilePlace | undefined): StoredText {
  const encoding = storedEncoding(document.encoding);
  const version: DocumentVersion = { document, version: document.version, ...(place ? { place } : {}) };
  return { text, bom: writesByteOrderMark(document.encoding), version, ...(encoding ? { encoding } : {}) };
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

  /**
   * The engine has stat'ed the path and applied the size limit just before; a directory still fails in readFile.
   * An open document is edited as VS Code decoded it; a closed file is opened in the encoding documentEncoding.ts chooses.
   */
  async read(path: string, _maxBytes?: number, encoding?: string): Promise<StoreResult<StoredText>> {
    const uri = vscode.Uri.file(path);
    const notebook = isNotebookPath(path) ? openNotebookOf(uri) : undefined;
    if (notebook) {
      return this.readOpenNotebook(path, notebook);
    }
    const open = openDocument(uri);
    if (open) {
      const text = open.getText();
      return text.includes('\0') ? fail('INVALID_ENCODING', 'the file contains NUL characters, so it is binary, not text') : { ok: true, value: storedTextOf(open, text, await placeOf(path)) };
    }
    let read: BytesRead;
    try {
      read = await readBytes(path);
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
    const choice = chooseEncoding(read.bytes, uri, encoding);
    if (!choice.ok) {
      return choice;
    }
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri, choice.encoding === 'guess' ? undefined : { encoding: choice.encoding });
    } catch {
      return unopenedAfterRead(path, read.identity);
    }
    const text = document.getText();
    return (await roundTripProblem(read.bytes, text, document.encoding)) ?? { ok: true, value: storedTextOf(document, text, await placeOf(path)) };
  }

  /** A notebook open in the notebook editor: its file's JSON with the cells' current text (openNotebooks.ts). */
  private async readOpenNotebook(path: string, notebook: vscode.NotebookDocument): Promise<StoreResult<StoredText>> {
    let read: BytesRead;
    try {
      read = await readBytes(path);
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
    // A notebook is UTF-8 JSON (nbformat): its bytes are read strictly, its BOM kept.
    const bom = read.bytes[0] === 0xef && read.bytes[1] === 0xbb && read.bytes[2] === 0xbf;
    let json: string;
    try {
      json = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(read.bytes.subarray(bom ? 3 : 0));
    } catch {
      return fail('INVALID_ENCODING', 'the notebook is not valid UTF-8, as nbformat requires');
    }
    return notebookAsOpen(notebook, json, bom);
  }

  /** The entries of a directory, so a missing file's envelope can name the closest ones. */
  async listNames(directory: string): Promise<StoreResult<readonly string[]>> {
    try {
      return { ok: true, value: await fs.readdir(directory) };
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
  }

  async commit(changes: readonly PlannedChange[], _isCancelled?: () => boolean, beforeWriting: () => Promise<void> = async () => undefined): Promise<StoreResult<void>> {
    await this.options.hooks?.beforeCommit?.(changes, this.options.cancellation);
    return withDocumentLocks(changes.flatMap(lockKeys).map(pathKey), () => this.commitInTurn(changes, beforeWriting));
  }

  /**
   * Re-checks every version (and that each path to create is free), applies the edit
   * and saves while no other request of this host can commit to these documents, so
   * each sees the others' results whole.
   */
  private async commitInTurn(changes: readonly PlannedChange[], beforeWriting: () => Promise<void>): Promise<StoreResult<void>> {
    if (this.options.cancellation?.isCancellationRequested) {
      return fail('CANCELLED', 'the request was cancelled before anything was written');
    }
    const updates = changes.filter((change): change is PlannedUpdate => change.kind === 'update');
    const notebookWrites = updates.filter((write) => isNotebookVersion(write.original.version));
    const writes = updates.filter((write) => !notebookWrites.includes(write));
    const cellEdits: ((edit: vscode.WorkspaceEdit) => void)[] = [];
    const notebooks: vscode.NotebookDocument[] = [];
    for (const write of notebookWrites) {
      const token = write.original.version;
      const cells = isNotebookVersion(token) ? cellReplacements(token, write.original.text, write.text.whole(), this.options.displayPath(write.path)) : fail('INTERNAL_ERROR', 'the notebook was not read through this store');
      if (!cells.ok || !isNotebookVersion(token)) {
        return cells.ok ? fail('INTERNAL_ERROR', 'the notebook was not read through this store') : { ...cells, path: write.path };
      }
      if (this.options.review) {
        return { ...fail('WRITE_FAILED', `${this.options.displayPath(write.path)} is open in the notebook editor, and the Refactor Preview shows files as text: apply the request without the preview, or close the notebook first`), path: write.path };
      }
      cellEdits.push(cells.value);
      notebooks.push(token.notebook);
    }
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
    const notebooksWereDirty = notebooks.map((notebook) => notebook.isDirty);
    // Text edits stay in the documents until they are saved; files created or deleted, and a
    // notebook's cells, reach the disk as the edit is applied.
    const writesOnApply = this.options.review !== undefined || operations.value.length > 0 || cellEdits.length > 0;
    if (writesOnApply) {
      await beforeWriting();
    }
    const applied = this.options.review ? await this.options.review() : await this.applyWrites(writes, documents, [...cellEdits, ...operations.value]);
    if (!applied.ok) {
      return applied;
    }
    if (!writesOnApply) {
      await beforeWriting();
    }
    await this.saveNotebooks(notebooks.filter((notebook, index) => shouldSaveAfterEdit(this.options.saveAfterEdit, notebooksWereDirty[index]) && notebook.isDirty));
    const toSave = writes.flatMap((write, index) => (shouldSaveAfterEdit(this.options.saveAfterEdit, wasDirty[index]) && documents[index].isDirty ? [{ write, document: documents[index] }] : []));
    return this.saveAfterEdit(toSave);
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
        const contents = await createdBytes(change);
        if (!contents.ok) {
          return contents;
        }
        entries.push((edit) => edit.createFile(vscode.Uri.file(change.path), { overwrite: false, contents: contents.value }));
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
    // Not edit.size: it counts only the documents with text edits, so an edit that only creates or deletes files would be skipped.
    if (writes.length === 0 && operations.length === 0) {
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
    const spans = write.spans ?? [{ start: 0, end: write.original.text.length, text: write.text.whole() }];
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

  /** Saves edited notebooks as VS Code saves them (its serializer writes the file); a failed save is logged, as for text. */
  private async saveNotebooks(notebooks: readonly vscode.NotebookDocument[]): Promise<void> {
    const saved = await Promise.all(notebooks.map((notebook) => notebook.save().then((ok) => ok, () => false)));
    saved.forEach((ok, index) => {
      if (!ok) {
        this.options.log?.warn(`Edited ${this.options.displayPath(notebooks[index].uri.fsPath)} but could not save it; the change is in the unsaved notebook`);
      }
    });
  }

  /**
   * Saves the edited documents. A failed save leaves the edit in the (dirty) buffer, where undo
   * still works, so it is logged, not reported. A save that VS Code made but that did not reach
   * the file planned (a directory swapped for a link while it saved) is reported: SAVE_REDIRECTED.
   */
  private async saveAfterEdit(saves: readonly { write: PlannedUpdate; document: vscode.TextDocument }[]): Promise<StoreResult<void>> {
    // A save that rejects (not only one that answers false) still leaves the applied edit in the buffer.
    const saved = await Promise.all(saves.map(({ document }) => document.save().then((ok) => ok, () => false)));
    const redirected: string[] = [];
    for (const [index, { write, document }] of saves.entries()) {
      const shown = this.options.displayPath(document.uri.fsPath);
      if (!saved[index]) {
        this.options.log?.warn(`Edited ${shown} but could not save it; the change is in the unsaved buffer`);
        continue;
      }
      const token = write.original.version;
      const planned = isDocumentVersion(token) ? token.place : undefined;
      const confirmation = planned && document.uri.scheme === 'file' ? await confirmSavedAt(document, planned) : { confirmed: true as const };
      if (!confirmation.confirmed) {
        this.options.log?.error(`Saving ${shown} was not confirmed: ${confirmation.why}. The edit is in the editor; a file outside ${planned?.realPath ?? shown} may hold the new text`);
        redirected.push(`${shown}: ${confirmation.why}`);
      }
    }
    return redirected.length === 0
      ? { ok: true, value: undefined }
      : { ...fail('SAVE_REDIRECTED', `saving it was not confirmed (${redirected.join('; ')}); a directory of its path was likely swapped for a link while VS Code saved, so the new text may have been written outside, and the edit is in the editor (undo removes it)`), path: saves[0].write.path };
  }
}

/**
 * A created file's bytes: a moved file keeps its encoding (VS Code encodes it); an added file is
 * UTF-8 unless it names another encoding (undo re-creating a deleted file as it was).
 */
async function createdBytes(change: Exclude<PlannedChange, { kind: 'update' | 'delete' }>): Promise<StoreResult<Uint8Array>> {
  const token = change.kind === 'move' ? change.original.version : undefined;
  const named = change.kind === 'add' && change.encoding !== undefined ? vscodeEncodingId(change.encoding) : undefined;
  if (change.kind === 'add' && change.encoding !== undefined && named === undefined) {
    return { ...fail('INVALID_ENCODING', `"${change.encoding}" is not an encoding VS Code knows, so the file cannot be created in it`), path: change.path };
  }
  const encoding = isDocumentVersion(token) ? token.document.encoding : named ?? 'utf8';
  const bytes = encoding === 'utf8' || encoding === 'utf8bom' ? storedBytes(change.text.whole(), change.bom) : await vscode.workspace.encode(change.text.whole(), { encoding });
  return { ok: true, value: bytes };
}

/** A created file's bytes: UTF-8, with the BOM the file had. */
export function storedBytes(text: string, bom: boolean): Uint8Array {
  return new TextEncoder().encode(`${bom ? '\uFEFF' : ''}${text}`);
}

/**
 * The document, when an editor holds it open: VS Code decoded it already, and its text
 * and encoding are what the user sees and what a save writes, so the file is not read again.
 * An open `Foo.ts` is the file a request names `foo.ts` where the file system ignores case:
 * documents are compared as the file system compares names (nameRules.ts).
 */
function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = pathKey(uri.fsPath);
  return vscode.workspace.textDocuments.find((candidate) => candidate.uri.scheme === 'file' && pathKey(candidate.uri.fsPath) === key);
}

/** Requests that touch the same document share its path, whichever way it was spelled (pathKey folds it); a path to create is keyed by itself. */
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
