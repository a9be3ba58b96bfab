/**
 * The history as a surface uses it: record an applied request, list the recent ones,
 * undo one. Every surface (the CLI, the MCP server, the extension) goes through this,
 * so request ids, records and undo mean the same everywhere.
 */
import { type EngineOptions, type EngineResponse, type ErrorEnvelope, type FileStore, type HistoryEntry, type HistorySurface, type SuccessResponse, undoRequest } from '../../core/index';
import { HistoryBook, type HistorySettings, requestId, sha256Text } from './historyBook';
import { RecordingStore } from './recordingStore';

/** One request on its way: the store to commit through, its id, and what to add to its answer. */
export interface RecordedRun {
  readonly store: FileStore;
  readonly requestId: string;
  /** The answer with a warning when the request was applied without a record. */
  readonly finish: <Response extends EngineResponse | { readonly success: boolean }>(response: Response) => Response;
}

export const HISTORY_NOT_KEPT = 'HISTORY_NOT_KEPT';

export class RequestHistory {
  private readonly books = new Map<string, Promise<HistoryBook>>();

  constructor(private readonly settings: HistorySettings, private readonly surface: HistorySurface) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** A request applied under `root` (a real path): its id, and a store that records it when history is on. */
  async record(root: string, store: FileStore, displayPath: (path: string) => string): Promise<RecordedRun> {
    const id = requestId();
    if (!this.settings.enabled) {
      return { store, requestId: id, finish: (response) => response };
    }
    let book: HistoryBook;
    try {
      book = await this.book(root, store);
    } catch {
      return { store, requestId: id, finish: (response) => withLostWarning(response, 'the history folder could not be opened') };
    }
    const recording = new RecordingStore(store, book, { id, surface: this.surface, displayPath });
    return { store: recording, requestId: id, finish: (response) => (recording.lost ? withLostWarning(response, recording.lost) : response) };
  }

  /** Recent requests under `root`, newest first. */
  async list(root: string, store: FileStore, limit: number): Promise<HistoryEntry[]> {
    const entries = await (await this.book(root, store)).entries();
    return entries.reverse().slice(0, limit);
  }

  /**
   * Undoes request `id` (default: the latest not yet undone) under `root`. `options` are
   * the surface's engine options for the undo: its store, path check and limits.
   */
  async undo(root: string, id: string | undefined, dryRun: boolean, options: EngineOptions): Promise<SuccessResponse | ErrorEnvelope> {
    const book = await this.book(root, options.store);
    const entries = await book.entries();
    // The request the undo takes back (the latest not undone by default): its undo is kept as its commit is (historyBook.ts).
    const chosen = [...entries].reverse().find((entry) => (id === undefined ? entry.undone_at === undefined : entry.request_id === id));
    const target = dryRun ? undefined : chosen;
    if (target && target.undone_at === undefined) {
      await book.beginUndo(target.request_id);
    }
    // Only the request taken back needs its large texts read back from their links.
    const loaded = chosen ? await book.withOriginals(chosen, options.store) : undefined;
    const { response, undone } = await undoRequest(entries.map((entry) => (entry === chosen && loaded ? loaded : entry)), id, { ...options, dryRun, digest: sha256Text, historyName: root });
    if (target && target.undone_at === undefined) {
      await book.endUndo(target, undone ? new Date() : undefined);
    }
    return response;
  }

  /** `entry` of `root`'s history with every text it keeps, those kept by a link read back through `store` (to show what undo restores). */
  async withKeptTexts(root: string, entry: HistoryEntry, store: FileStore): Promise<HistoryEntry> {
    return (await this.book(root, store)).withOriginals(entry, store);
  }

  /**
   * Marks request `id` of `root` undone without writing a file: the editor took it back with
   * its own undo. False when the history keeps no such request, or it was undone already.
   */
  async markUndone(root: string, id: string, store: FileStore): Promise<boolean> {
    const book = await this.book(root, store);
    const entry = (await book.entries()).find((candidate) => candidate.request_id === id);
    if (!entry || entry.undone_at !== undefined) {
      return false;
    }
    await book.markUndone(entry, new Date());
    return true;
  }

  /** The book of a root, opened once; its pending records are settled on opening. */
  private book(root: string, store: FileStore): Promise<HistoryBook> {
    let opened = this.books.get(root);
    if (!opened) {
      opened = HistoryBook.open(this.settings, root).then(async (book) => {
        await book.settle(store, sha256Text);
        return book;
      });
      opened.catch(() => this.books.delete(root));
      this.books.set(root, opened);
    }
    return opened;
  }
}

function withLostWarning<Response extends { readonly success: boolean }>(response: Response, why: string): Response {
  if (!response.success) {
    return response;
  }
  const success = response as Response & { readonly warnings?: readonly { code: string; message: string }[] };
  return { ...success, warnings: [...(success.warnings ?? []), { code: HISTORY_NOT_KEPT, message: `The request was applied, but it cannot be undone from the history: ${why}` }] };
}

/** A request as a history listing shows it: what it did to which files, without the text it keeps. */
export function listedRequest(entry: HistoryEntry): Record<string, unknown> {
  return {
    request_id: entry.request_id,
    time: entry.time,
    surface: entry.surface,
    summary: entry.summary,
    files: entry.files.map((file) => ({ path: file.path, operation: file.operation, ...(file.moved_from !== undefined ? { moved_from: file.moved_from } : {}) })),
    ...(entry.undone_at !== undefined ? { undone_at: entry.undone_at } : {}),
  };
}
