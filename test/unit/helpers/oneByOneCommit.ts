/**
 * A batch commit for test stores that can only change one file at a time: each change
 * is applied in turn, and when one fails, every change already applied is undone by
 * its inverse, last first. The result says which files were put back and which could
 * not be. Production stores commit a batch natively (a journal on disk, one
 * WorkspaceEdit); this is how a store without that would keep the promise.
 */
import type { PlannedChange, StoreFailure, StoreResult } from '../../../src/core/store/fileStore';
import { wholeText } from '../../../src/core/text/editedText';

export type ApplyOne = (change: PlannedChange) => Promise<StoreResult<void>>;

export async function commitOneByOne(changes: readonly PlannedChange[], applyOne: ApplyOne): Promise<StoreResult<void>> {
  const applied: PlannedChange[] = [];
  for (const change of changes) {
    const result = await guarded(applyOne, change);
    if (!result.ok) {
      return { ...result, path: change.path, ...(await undo(applied, applyOne)) };
    }
    applied.push(change);
  }
  return { ok: true, value: undefined };
}

/** The change that takes a file back from what `change` made of it to what it was. */
export function inverseOf(change: PlannedChange): PlannedChange {
  switch (change.kind) {
    case 'update':
      // The file now holds the plan's text; there is no version of it to check against.
      return { kind: 'update', path: change.path, text: wholeText(change.original.text), bom: change.original.bom, original: { text: change.text.whole(), bom: change.bom } };
    case 'add':
      return { kind: 'delete', path: change.path, original: { text: change.text.whole(), bom: change.bom } };
    case 'delete':
      return { kind: 'add', path: change.path, text: wholeText(change.original.text), bom: change.original.bom };
    case 'move':
      return { kind: 'move', from: change.path, path: change.from, text: wholeText(change.original.text), bom: change.original.bom, original: { text: change.text.whole(), bom: change.bom } };
  }
}

async function undo(applied: readonly PlannedChange[], applyOne: ApplyOne): Promise<Pick<StoreFailure, 'restored' | 'unrestored'>> {
  const restored: string[] = [];
  const unrestored: string[] = [];
  for (const change of [...applied].reverse()) {
    const result = await guarded(applyOne, inverseOf(change));
    (result.ok ? restored : unrestored).push(change.path);
  }
  return { restored: restored.reverse(), unrestored: unrestored.reverse() };
}

/** A store that throws while writing one file has still failed that file, and the others are put back. */
async function guarded(applyOne: ApplyOne, change: PlannedChange): Promise<StoreResult<void>> {
  try {
    return await applyOne(change);
  } catch {
    return { ok: false, code: 'WRITE_FAILED', detail: 'the file store failed unexpectedly' };
  }
}
