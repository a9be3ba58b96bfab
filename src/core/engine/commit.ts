/**
 * Commits a plan through the store's batch commit: every changed file at once, or
 * none. The store reports FILE_BUSY while another writer holds a file; the whole
 * commit is then tried again with the retry policy's backoff.
 */
import type { EngineContext } from './engineContext';
import type { ErrorCode } from '../contract/errorCodes';
import type { PlannedChange, StoreResult } from '../store/fileStore';
import type { PlannedFile } from '../plan/filePlan';
import { retryWhileBusy } from './retry';

export type CommitResult =
  | { readonly ok: true }
  | {
    readonly ok: false;
    readonly code: ErrorCode;
    readonly detail: string;
    /** The file whose write failed, when the store says which. */
    readonly failedPath?: string;
    /** Files written and then restored to their original text. */
    readonly rolledBack: readonly string[];
    /** Files written whose restore failed too: they hold the new text. */
    readonly notRestored: readonly string[];
  };

export async function commitFiles(files: readonly PlannedFile[], context: EngineContext): Promise<CommitResult> {
  const changes = files
    .filter((file) => file.newText !== file.original.text)
    .map((file): PlannedChange => ({ kind: 'update', path: file.path, text: file.newText, bom: file.original.bom, original: file.original }));
  if (changes.length === 0) {
    return { ok: true };
  }
  const { store, retry, sleep, isCancelled } = context;
  const result = await retryWhileBusy(() => guarded(() => store.commit(changes, isCancelled)), retry, sleep, isCancelled);
  return result.ok ? { ok: true } : {
    ok: false,
    code: result.code,
    detail: result.detail,
    ...(result.path !== undefined ? { failedPath: result.path } : {}),
    rolledBack: result.restored ?? [],
    notRestored: result.unrestored ?? [],
  };
}

/** A store that throws is a bug in the store; the engine still answers with an envelope. */
async function guarded(commit: () => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
  try {
    return await commit();
  } catch {
    return { ok: false, code: 'WRITE_FAILED', detail: 'the file store failed unexpectedly' };
  }
}
