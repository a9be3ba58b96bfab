/**
 * Undo: take an applied request back, every file or none. The history entry says what
 * each file held before and after the request; undo checks that every file still holds
 * what the request left (else STALE_CONTENT, naming each file and the later request
 * that changed it), then commits the reverse through the same store, with the same
 * path checks and retries as any request. A dry run returns the diff it would apply.
 *
 * A file is read up to the size limit, or up to the size the request left it at when the
 * record says so and that is more: what the request itself wrote is no surprise. A file
 * larger than that cannot be checked, and the undo is FILE_TOO_LARGE, never STALE_CONTENT:
 * the limit stopped the read, not a change the undo found.
 */
import { commitChanges } from './commit';
import { commitFailure } from './engine';
import { engineContext, type EngineContext } from './engineContext';
import { envelopeFor } from '../contract/envelope';
import { plural } from '../contract/format';
import type { HistoryEntry, HistoryFile, KeptText } from '../contract/history';
import type { ErrorEnvelope, SuccessResponse } from '../contract/schemas';
import type { PlannedFile } from '../plan/filePlan';
import { successResponse } from '../report/successReport';
import type { PlannedChange, StoredText } from '../store/fileStore';
import { holdsKept, type TextDigest } from '../store/changeHistory';
import type { EngineOptions } from './options';

export interface UndoOptions extends EngineOptions {
  readonly dryRun?: boolean;
  /** How the history's digests were made. */
  readonly digest: TextDigest;
  /** The history's name in messages (its root). */
  readonly historyName: string;
}

/** An undo's answer, and the request it took back when it did. */
export interface UndoRun {
  readonly response: SuccessResponse | ErrorEnvelope;
  readonly undone?: HistoryEntry;
}

/**
 * Undoes request `id` of a history (its entries oldest first), or, without an id, the
 * latest one not yet undone.
 */
export async function undoRequest(entries: readonly HistoryEntry[], id: string | undefined, options: UndoOptions): Promise<UndoRun> {
  const index = id === undefined ? lastIndexOf(entries, (entry) => entry.undone_at === undefined) : entries.findIndex((entry) => entry.request_id === id);
  const entry = entries[index];
  const dryRun = options.dryRun === true;
  if (entry === undefined) {
    return { response: nothingToUndo(options.historyName, id, entries.length, dryRun) };
  }
  if (entry.undone_at !== undefined) {
    return {
      response: envelopeFor('VALIDATION_FAILED', `Request ${entry.request_id} was already undone at ${entry.undone_at}; nothing was changed`, {
        hints: ['List the history to pick a request that has not been undone'], ownHintsOnly: true, dry_run: dryRun,
      }),
    };
  }
  const response = await undoEntry(entry, entries.slice(index + 1), options);
  return response.success && !dryRun ? { response, undone: entry } : { response };
}

function lastIndexOf<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) {
    if (test(items[index])) return index;
  }
  return -1;
}

function nothingToUndo(historyName: string, id: string | undefined, count: number, dryRun: boolean): ErrorEnvelope {
  const message = id === undefined
    ? `There is no applied request to undo in the history of ${historyName}${count > 0 ? ' (every request kept there was undone already)' : ''}; nothing was changed`
    : `There is no request ${id} in the history of ${historyName}; nothing was changed`;
  return envelopeFor('VALIDATION_FAILED', message, {
    hints: ['List the history of this root to see the request ids it keeps', 'A request applied under another root is kept in that root\'s history: undo it from there'],
    ownHintsOnly: true,
    dry_run: dryRun,
  });
}

/** A file as undo finds it: what it holds now, absent, or more than undo may read. */
type Found =
  | { readonly state: 'absent' }
  | { readonly state: 'present'; readonly stored: StoredText }
  | { readonly state: 'too large' }
  | { readonly state: 'unreadable'; readonly detail: string };

/** One file undo will restore, and why it cannot when it cannot. */
interface Restoration {
  readonly file: HistoryFile;
  readonly change: PlannedChange;
  readonly planned: PlannedFile;
}

interface Stale {
  readonly path: string;
  readonly why: string;
}

/** A file the request left in place that is larger than undo may read: it cannot be checked, so it is not restored. */
interface TooLarge {
  readonly path: string;
  /** The size limit of the undo, in bytes. */
  readonly limit: number;
  /** The bytes the request left the file with, when its record says and that is over the limit (then the read stopped there). */
  readonly written?: number;
}

/** `later`: the requests applied after this one, oldest first; a file changed since is blamed on the latest that touched it. */
async function undoEntry(entry: HistoryEntry, later: readonly HistoryEntry[], options: UndoOptions): Promise<SuccessResponse | ErrorEnvelope> {
  const context = engineContext(options);
  const dryRun = options.dryRun === true;
  try {
    const refused = await pathRefusal(entry, context);
    if (refused) {
      return refused;
    }
    const restorations: Restoration[] = [];
    const stale: Stale[] = [];
    const tooLarge: TooLarge[] = [];
    for (const file of entry.files) {
      const restored = await restorationOf(file, context, options.digest);
      if ('why' in restored) {
        stale.push(restored);
      } else if ('limit' in restored) {
        tooLarge.push(restored);
      } else {
        restorations.push(restored);
      }
    }
    // Until a file too large to read is read, no one can say whether it changed: the limit is the answer.
    if (tooLarge.length > 0) {
      return tooLargeEnvelope(entry, tooLarge, context, dryRun);
    }
    if (stale.length > 0) {
      return staleEnvelope(entry, stale, later, context, dryRun);
    }
    const planned = restorations.map((restoration) => restoration.planned);
    // An undo has no option to ask for more: its dry run shows every line a removal takes back.
    const success = successResponse({ multiFile: true, files: planned, warnings: [], dryRun, includeDiff: dryRun, fullDiff: true, maxDiffBytes: context.limits.maxDiffBytes });
    const summary = `${dryRun ? 'Dry run: undo of' : 'Undid'} request ${entry.request_id} (${entry.summary}): ${restoredWork(restorations)}${dryRun ? '; nothing was written' : ''}`;
    const answer: SuccessResponse = { ...success, summary, undone_request_id: entry.request_id };
    if (dryRun) {
      return answer;
    }
    if (context.isCancelled()) {
      return envelopeFor('CANCELLED', 'The undo was cancelled before anything was written; no file was changed', { dry_run: false, maxBytes: context.limits.maxEnvelopeBytes });
    }
    const result = await commitChanges(restorations.map((restoration) => restoration.change), context);
    return result.ok ? answer : commitFailure(result, planned, true, context);
  } catch (error) {
    options.onInternalError?.('while undoing a request', error);
    return envelopeFor('INTERNAL_ERROR', 'Undo failed unexpectedly; no file was changed', { dry_run: dryRun, maxBytes: context.limits.maxEnvelopeBytes });
  }
}

/** Every path is checked as a request's would be: a root or protected rule that changed since still holds. */
async function pathRefusal(entry: HistoryEntry, context: EngineContext): Promise<ErrorEnvelope | undefined> {
  for (const file of entry.files) {
    for (const path of file.moved_from === undefined ? [file.path] : [file.moved_from, file.path]) {
      const check = await context.checkPath(path);
      if (!check.ok) {
        return envelopeFor(check.code, `Cannot undo request ${entry.request_id}: ${check.detail}; no file was changed`, { file_path: path, maxBytes: context.limits.maxEnvelopeBytes });
      }
    }
  }
  return undefined;
}

async function restorationOf(file: HistoryFile, context: EngineContext, digest: TextDigest): Promise<Restoration | Stale | TooLarge> {
  // The file is read in the encoding the request found it in, as the request's own read did,
  // and up to the size the request left it at, when the record says (a delete left no file).
  const written = file.after?.bytes;
  const now = await find(file.path, context, file.after?.encoding ?? file.before?.encoding, written);
  if (now.state === 'too large' && file.after !== undefined) {
    const limit = context.limits.maxFileBytes;
    return { path: file.path, limit, ...(written !== undefined && written > limit ? { written } : {}) };
  }
  const differs = (path: string, found: Found, expected: KeptText | undefined): Stale | undefined => changedSince(path, found, expected, digest);
  switch (file.operation) {
    case 'update': {
      const stale = differs(file.path, now, file.after);
      if (stale || now.state !== 'present' || file.before?.text === undefined) return stale ?? unusable(file.path);
      return restore(file, { kind: 'update', path: file.path, text: file.before.text, bom: file.before.bom, original: now.stored }, now.stored, file.before.text, undefined, context);
    }
    case 'add': {
      const stale = differs(file.path, now, file.after);
      if (stale || now.state !== 'present') return stale ?? unusable(file.path);
      return restore(file, { kind: 'delete', path: file.path, original: now.stored }, now.stored, '', 'delete', context);
    }
    case 'delete': {
      const stale = differs(file.path, now, undefined);
      if (stale || file.before?.text === undefined) return stale ?? unusable(file.path);
      // Re-created in the encoding it was read in, so its bytes come back as they were.
      const { text, bom, encoding } = file.before;
      return restore(file, { kind: 'add', path: file.path, text, bom, ...(encoding !== undefined ? { encoding } : {}) }, EMPTY, text, 'add', context);
    }
    case 'move': {
      const from = file.moved_from;
      const stale = differs(file.path, now, file.after) ?? (from === undefined ? undefined : differs(from, await find(from, context), undefined));
      if (stale || now.state !== 'present' || from === undefined || file.before?.text === undefined) return stale ?? unusable(file.path);
      const change: PlannedChange = { kind: 'move', from: file.path, path: from, text: file.before.text, bom: file.before.bom, original: now.stored };
      return restore({ ...file, path: from, moved_from: file.path }, change, now.stored, file.before.text, 'move', context);
    }
  }
}

const EMPTY: StoredText = { text: '', bom: false };

function restore(file: HistoryFile, change: PlannedChange, original: StoredText, newText: string, operation: PlannedFile['operation'], context: EngineContext): Restoration {
  const planned: PlannedFile = {
    path: file.path,
    displayPath: context.displayPath(file.path),
    original,
    newText,
    editsApplied: 0,
    replacements: 0,
    applied: [],
    spans: [],
    ...(operation ? { operation } : {}),
    ...(file.moved_from !== undefined ? { movedFrom: file.moved_from } : {}),
  };
  return { file, change, planned };
}

/** `written`: the bytes the request left the file with, when its record says; read up to that much even past the limit. */
async function find(path: string, context: EngineContext, encoding?: string, written?: number): Promise<Found> {
  const read = await context.store.read(path, Math.max(context.limits.maxFileBytes, written ?? 0), encoding);
  if (read.ok) {
    return { state: 'present', stored: read.value };
  }
  switch (read.code) {
    case 'FILE_NOT_FOUND':
      return { state: 'absent' };
    case 'FILE_TOO_LARGE':
      return { state: 'too large' };
    default:
      return { state: 'unreadable', detail: read.detail };
  }
}

/** Why a file is not as the request left it (`expected` absent: the request left no file there). */
function changedSince(path: string, now: Found, expected: KeptText | undefined, digest: TextDigest): Stale | undefined {
  if (now.state === 'unreadable') {
    return { path, why: `cannot be read (${now.detail})` };
  }
  if (expected === undefined) {
    // A file too large to read is still a file where the request left none.
    return now.state === 'absent' ? undefined : { path, why: 'exists again' };
  }
  if (now.state === 'absent') {
    return { path, why: 'was removed' };
  }
  if (now.state === 'too large') {
    // restorationOf answers these before asking; kept here so no path reads a limit as a change.
    return undefined;
  }
  return holdsKept(now.stored, expected, digest) ? undefined : { path, why: 'was changed' };
}

/** A record without the text it needs (written by a newer version, or edited by hand). */
function unusable(path: string): Stale {
  return { path, why: 'has no kept text in the history' };
}

function staleEnvelope(entry: HistoryEntry, stale: readonly Stale[], later: readonly HistoryEntry[], context: EngineContext, dryRun: boolean): ErrorEnvelope {
  const blamed = stale.map((file) => ({ ...file, by: lastToTouch(file.path, later) }));
  const named = blamed.map((file) => `${context.displayPath(file.path)} ${file.why} ${file.by ? `by request ${file.by.request_id}` : 'outside Multi-Edit'}`);
  const laterIds = [...new Set(blamed.flatMap((file) => (file.by ? [file.by.request_id] : [])))];
  return envelopeFor('STALE_CONTENT', `Cannot undo request ${entry.request_id}: ${plural(stale.length, 'file')} changed since it was applied: ${named.join('; ')}. No file was changed`, {
    file_path: stale[0].path,
    hints: [
      ...(laterIds.length > 0 ? [`Undo the later ${laterIds.length === 1 ? 'request' : 'requests'} first (${laterIds.reverse().join(', ')}, newest first), then this one`] : []),
      ...(blamed.some((file) => !file.by) ? ['A file was changed outside Multi-Edit: ask the user before taking its changes back'] : []),
      'List the requests with the history command or tool',
    ],
    ownHintsOnly: true,
    action: 'ask_user',
    dry_run: dryRun,
    maxBytes: context.limits.maxEnvelopeBytes,
  });
}

/** FILE_TOO_LARGE: the files the undo could not read within its limit, each with the limit it met. */
function tooLargeEnvelope(entry: HistoryEntry, files: readonly TooLarge[], context: EngineContext, dryRun: boolean): ErrorEnvelope {
  const named = files.map((file) => (file.written === undefined
    ? `${context.displayPath(file.path)} has more than ${file.limit} bytes, the size limit`
    // Read up to what the request wrote, past the limit: more than that is not what the request left.
    : `${context.displayPath(file.path)} has more than the ${file.written} bytes the request left it with, and the size limit is ${file.limit} bytes`));
  const checked = files.length === 1 ? 'whether it changed since could not be checked' : 'whether they changed since could not be checked';
  return envelopeFor('FILE_TOO_LARGE', `Cannot undo request ${entry.request_id}: ${named.join('; ')}, so ${checked}. No file was changed`, {
    file_path: files[0].path,
    dry_run: dryRun,
    maxBytes: context.limits.maxEnvelopeBytes,
  });
}

function lastToTouch(path: string, later: readonly HistoryEntry[]): HistoryEntry | undefined {
  return [...later].reverse().find((entry) => entry.undone_at === undefined && entry.files.some((file) => file.path === path || file.moved_from === path));
}

function restoredWork(restorations: readonly Restoration[]): string {
  const count = (operation: PlannedFile['operation']): number => restorations.filter((restoration) => restoration.planned.operation === operation).length;
  const parts = [
    [count(undefined), 'restored'],
    [count('add'), 're-created'],
    [count('delete'), 'removed'],
    [count('move'), 'moved back'],
  ] as const;
  return parts.filter(([n]) => n > 0).map(([n, word]) => `${plural(n, 'file')} ${word}`).join(', ');
}
