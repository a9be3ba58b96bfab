/**
 * Writes a plan. A store that can commit everything at once (one WorkspaceEdit) does
 * so; otherwise files are written one by one, and when a write fails, every file
 * already written gets its original text back, so no byte of any file has changed.
 */
import type { EngineContext } from './engineContext';
import type { ErrorCode } from '../contract/errorCodes';
import type { PlannedWrite, StoreResult } from '../store/fileStore';
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
  const writes = files
    .filter((file) => file.newText !== file.original.text)
    .map((file): PlannedWrite => ({ path: file.path, text: file.newText, bom: file.original.bom, original: file.original }));
  if (writes.length === 0) {
    return { ok: true };
  }
  const { store, retry, sleep, isCancelled } = context;
  const commitAll = store.commitAll?.bind(store);
  if (commitAll) {
    const result = await retryWhileBusy(() => guarded(() => commitAll(writes, isCancelled)), retry, sleep, isCancelled);
    return result.ok ? { ok: true } : {
      ok: false,
      code: result.code,
      detail: result.detail,
      ...(result.path !== undefined ? { failedPath: result.path } : {}),
      rolledBack: result.restored ?? [],
      notRestored: result.unrestored ?? [],
    };
  }
  const written: PlannedWrite[] = [];
  for (const write of writes) {
    const result = await retryWhileBusy(() => guarded(() => store.write(write)), retry, sleep);
    if (!result.ok) {
      const { rolledBack, notRestored } = await restore(written, context);
      return { ok: false, code: result.code, detail: result.detail, failedPath: write.path, rolledBack, notRestored };
    }
    written.push(write);
  }
  return { ok: true };
}

/** Writes each file's original text back, last written first. */
async function restore(written: readonly PlannedWrite[], context: EngineContext): Promise<{ rolledBack: string[]; notRestored: string[] }> {
  const rolledBack: string[] = [];
  const notRestored: string[] = [];
  for (const write of [...written].reverse()) {
    const undo: PlannedWrite = {
      path: write.path,
      text: write.original.text,
      bom: write.original.bom,
      // The file now holds the plan's text; there is no version of it to check against.
      original: { text: write.text, bom: write.bom },
    };
    const result = await retryWhileBusy(() => guarded(() => context.store.write(undo)), context.retry, context.sleep);
    (result.ok ? rolledBack : notRestored).push(write.path);
  }
  return { rolledBack: rolledBack.reverse(), notRestored: notRestored.reverse() };
}

/** A store that throws during a write is still a failed write, so the files written so far get restored. */
async function guarded(write: () => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
  try {
    return await write();
  } catch {
    return { ok: false, code: 'WRITE_FAILED', detail: 'the file store failed unexpectedly' };
  }
}
