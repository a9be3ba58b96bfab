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
import { sameText } from '../text/editedText';

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

/** `commit` hands the changes to the store: its plain commit unless the caller says otherwise. */
export function commitFiles(
  files: readonly PlannedFile[],
  context: EngineContext,
  commit?: (changes: readonly PlannedChange[]) => Promise<StoreResult<void>>,
): Promise<CommitResult> {
  return commitChanges(files.flatMap(plannedChange), context, commit);
}

/** Commits changes made without a plan (an undo's), with the same checks and retries as a plan's. */
export async function commitChanges(
  changes: readonly PlannedChange[],
  context: EngineContext,
  commit: (changes: readonly PlannedChange[]) => Promise<StoreResult<void>> = (all) => context.store.commit(all, context.isCancelled),
): Promise<CommitResult> {
  if (changes.length === 0) {
    return { ok: true };
  }
  const moved = await firstMovedOutOfScope(changes, context);
  if (moved) {
    return moved;
  }
  const { retry, sleep, isCancelled } = context;
  const result = await retryWhileBusy(() => guarded(() => commit(changes)), retry, sleep, isCancelled);
  return result.ok ? { ok: true } : {
    ok: false,
    code: result.code,
    detail: result.detail,
    ...(result.path !== undefined ? { failedPath: result.path } : {}),
    rolledBack: result.restored ?? [],
    notRestored: result.unrestored ?? [],
  };
}

/**
 * The path check again, right before the store writes: a link or a folder swapped in
 * since the plan was made (or while the user reviewed it) is refused before a byte
 * is written. A store that can check by the opened file as well does (the Node store).
 */
async function firstMovedOutOfScope(changes: readonly PlannedChange[], context: EngineContext): Promise<CommitResult | undefined> {
  for (const change of changes) {
    for (const path of change.kind === 'move' ? [change.from, change.path] : [change.path]) {
      const check = await context.checkPath(path);
      if (!check.ok) {
        return { ok: false, code: check.code, detail: check.detail, failedPath: change.path, rolledBack: [], notRestored: [] };
      }
    }
  }
  return undefined;
}

/** What the store must do for one planned file; an update that changes nothing is left out. */
function plannedChange(file: PlannedFile): PlannedChange[] {
  const { path, newText: text, original } = file;
  switch (file.operation) {
    case 'add':
      return [{ kind: 'add', path, text, bom: false }];
    case 'delete':
      return [{ kind: 'delete', path, original }];
    case 'move':
      return [{ kind: 'move', from: file.movedFrom ?? path, path, text, bom: original.bom, original }];
    default:
      // The spans are passed on as the plan's getter, so a store that never reads them never pays for them.
      return sameText(text, original.text) ? [] : [{ kind: 'update', path, text, bom: original.bom, original, get spans() { return file.spans; } }];
  }
}

/** A store that throws is a bug in the store; the engine still answers with an envelope. */
async function guarded(commit: () => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
  try {
    return await commit();
  } catch {
    return { ok: false, code: 'WRITE_FAILED', detail: 'the file store failed unexpectedly' };
  }
}
