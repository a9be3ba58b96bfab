/**
 * A FileStore that keeps a request's history as it commits: the record is written,
 * synced, while the inner store stages and syncs its files, and nothing is published
 * before the record is on disk (the inner store's go-ahead waits for it). A record
 * that cannot be written leaves the request as it would be without history, and says
 * so once (`lost`).
 */
import type { FileStore, GoAhead, HistorySurface, PlannedChange, StoreResult } from '../../core/index';
import { historyFilesOf } from '../../core/index';
import { type HistoryBook, sha256Text, storedByteLength } from './historyBook';

export interface RecordedRequest {
  readonly id: string;
  readonly surface: HistorySurface;
  /** How a path reads in the record's summary. */
  readonly displayPath: (path: string) => string;
}

export class RecordingStore implements FileStore {
  /** Why the request was applied without a record, when it was. */
  lost: string | undefined;
  /** Whether a commit went through with its record kept. */
  recorded = false;

  /**
   * Offered only when the inner store offers it: the engine commits through a store that
   * can stage before the syntax gate's verdict differently, and a recorded commit must go
   * as the unrecorded one would (the VS Code store has none).
   */
  readonly commitWhenCleared: FileStore['commitWhenCleared'];

  constructor(private readonly inner: FileStore, private readonly book: HistoryBook, private readonly request: RecordedRequest) {
    this.commitWhenCleared = inner.commitWhenCleared ? (changes, goAhead, isCancelled) => this.commitRecorded(changes, goAhead, isCancelled) : undefined;
  }

  stat: FileStore['stat'] = (...args) => this.inner.stat(...args);
  read: FileStore['read'] = (...args) => this.inner.read(...args);
  get listNames(): FileStore['listNames'] {
    return this.inner.listNames?.bind(this.inner);
  }

  commit(changes: readonly PlannedChange[], isCancelled?: () => boolean): Promise<StoreResult<void>> {
    return this.commitRecorded(changes, async () => true, isCancelled);
  }

  /** Commits through the inner store once the record is on disk and `goAhead` says yes. */
  private async commitRecorded(changes: readonly PlannedChange[], goAhead: GoAhead, isCancelled?: () => boolean): Promise<StoreResult<void>> {
    const { id } = this.request;
    const pending = this.begin(changes);
    const cleared: GoAhead = async () => {
      await pending;
      return goAhead();
    };
    const result = this.inner.commitWhenCleared
      ? await this.inner.commitWhenCleared(changes, cleared, isCancelled)
      : (await goAhead())
        // The record is written while the store prepares in memory; nothing reaches the disk before it is synced.
        ? await this.inner.commit(changes, isCancelled, async () => void (await pending))
        : { ok: false as const, code: 'CANCELLED' as const, detail: 'the commit was held back before anything was written' };
    const kept = await pending;
    if (!kept) {
      return result;
    }
    try {
      if (result.ok) {
        await this.book.commit(id);
        this.recorded = true;
      } else {
        await this.book.abandon(id);
      }
    } catch {
      // The files are written; the record stays pending and the next opening settles it.
      this.lost = 'the history record could not be completed; it is settled the next time the history is opened';
    }
    return result;
  }

  /** Writes the pending record; false (and `lost` set) when it could not be kept. */
  private async begin(changes: readonly PlannedChange[]): Promise<boolean> {
    const { id, surface, displayPath } = this.request;
    try {
      const kept = await this.book.begin({ request_id: id, time: new Date().toISOString(), surface, summary: describeChanges(changes, displayPath), files: historyFilesOf(changes, sha256Text, storedByteLength) }, this.inner.linkOriginal?.bind(this.inner));
      if (!kept) {
        this.lost = 'the request is larger than the history may hold';
      }
      return kept;
    } catch {
      this.lost = 'the history folder could not be written';
      return false;
    }
  }
}

const VERB = { update: 'updated', add: 'added', delete: 'deleted', move: 'moved' } as const;

/** "src/a.ts updated, src/b.ts added": what the request did, as the history lists it. */
function describeChanges(changes: readonly PlannedChange[], displayPath: (path: string) => string): string {
  const shown = changes.slice(0, 5).map((change) => `${change.kind === 'move' ? `${displayPath(change.from)} → ` : ''}${displayPath(change.path)} ${VERB[change.kind]}`);
  return changes.length > shown.length ? `${shown.join(', ')} and ${changes.length - shown.length} more` : shown.join(', ');
}
