/**
 * Undo: take an applied request back, every file or none. The history entry says what
 * each file held before and after the request; undo checks that every file still holds
 * what the request left (else STALE_CONTENT, naming each file and the later request
 * that changed it), then commits the reverse through the same store, with the same
 * path checks and retries as any request. A dry run returns the diff it would apply.
 *
 * A file is read up to the size limit, or up to the size the request left it at when the
 * record says so and that is more: what the request itself wrote is no surprise. A file the
 * request left that undo cannot read has changed when the read's failure says so (it grew
 * past that size, is a directory or a special file now, or no longer reads in its encoding):
 * STALE_CONTENT. Otherwise (larger than a limit that no size in the record explains, not
 * readable by this user, busy past the retries) it cannot be checked, and the undo answers
 * with the read's own code (FILE_TOO_LARGE, PERMISSION_DENIED, ...): nobody found a change.
 */
import { commitChanges } from './commit';
import { commitFailure } from './engine';
import { engineContext, type EngineContext } from './engineContext';
import { retryWhileBusy } from './retry';
import { envelopeFor } from '../contract/envelope';
import { plural } from '../contract/format';
import type { ErrorCode } from '../contract/errorCodes';
import type { HistoryEntry, HistoryFile, KeptText } from '../contract/history';
import type { ErrorEnvelope, SuccessResponse } from '../contract/schemas';
import type { PlannedFile } from '../plan/filePlan';
import { successResponse } from '../report/successReport';
import type { PlannedChange, StoredText } from '../store/fileStore';
import { holdsKept, type TextDigest } from '../store/changeHistory';
import type { EngineOptions } from './options';
import { wholeText } from '../text/editedText';

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

/** A file as undo finds it: what it holds now, absent, or unreadable (with the read's code). */
type Found =
  | { readonly state: 'absent' }
  | { readonly state: 'present'; readonly stored: StoredText }
  | { readonly state: 'unreadable'; readonly code: ErrorCode; readonly detail: string };

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

/** A file the request left in place that undo could not read: it cannot be checked, so nothing is restored. */
interface Unchecked {
  readonly path: string;
  /** The read's code. */
  readonly code: ErrorCode;
  /** Why, after the file's name. */
  readonly why: string;
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
    const unchecked: Unchecked[] = [];
    for (const file of entry.files) {
      const restored = await restorationOf(file, context, options.digest);
      if ('code' in restored) {
        unchecked.push(restored);
      } else if ('why' in restored) {
        stale.push(restored);
      } else {
        restorations.push(restored);
      }
    }
    // Until a file that could not be read is read, no one can say whether it changed: the read's failure is the answer.
    if (unchecked.length > 0) {
      return uncheckedEnvelope(entry, unchecked, context, dryRun);
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

async function restorationOf(file: HistoryFile, context: EngineContext, digest: TextDigest): Promise<Restoration | Stale | Unchecked> {
  // The file is read in the encoding the request found it in, as the request's own read did,
  // and up to the size the request left it at, when the record says (a delete left no file).
  const written = file.after?.bytes;
  const now = await find(file.path, context, file.after?.encoding ?? file.before?.encoding, written);
  if (now.state === 'unreadable' && file.after !== undefined) {
    return unreadable(file.path, now, context.limits.maxFileBytes, written);
  }
  const differs = (path: string, found: Found, expected: KeptText | undefined): Stale | undefined => changedSince(path, found, expected, digest);
  switch (file.operation) {
    case 'update': {
      const stale = differs(file.path, now, file.after);
      if (stale || now.state !== 'present' || file.before?.text === undefined) return stale ?? unusable(file.path);
      return restore(file, { kind: 'update', path: file.path, text: wholeText(file.before.text), bom: file.before.bom, original: now.stored }, now.stored, file.before.text, undefined, context);
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
      return restore(file, { kind: 'add', path: file.path, text: wholeText(text), bom, ...(encoding !== undefined ? { encoding } : {}) }, EMPTY, text, 'add', context);
    }
    case 'move': {
      const from = file.moved_from;
      const stale = differs(file.path, now, file.after) ?? (from === undefined ? undefined : differs(from, await find(from, context), undefined));
      if (stale || now.state !== 'present' || from === undefined || file.before?.text === undefined) return stale ?? unusable(file.path);
      const change: PlannedChange = { kind: 'move', from: file.path, path: from, text: wholeText(file.before.text), bom: file.before.bom, original: now.stored };
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
    newText: wholeText(newText),
    editsApplied: 0,
    replacements: 0,
    applied: [],
    spans: [],
    ...(operation ? { operation } : {}),
    ...(file.moved_from !== undefined ? { movedFrom: file.moved_from } : {}),
  };
  return { file, change, planned };
}

/**
 * `written`: the bytes the request left the file with, when its record says; read up to that
 * much even past the limit. A busy file is waited for, as a request's own read waits.
 */
async function find(path: string, context: EngineContext, encoding?: string, written?: number): Promise<Found> {
  const { store, limits, retry, sleep, isCancelled } = context;
  const read = await retryWhileBusy(() => store.read(path, Math.max(limits.maxFileBytes, written ?? 0), encoding), retry, sleep, isCancelled);
  if (read.ok) {
    return { state: 'present', stored: read.value };
  }
  return read.code === 'FILE_NOT_FOUND' ? { state: 'absent' } : { state: 'unreadable', code: read.code, detail: read.detail };
}

/**
 * A file the request left that undo could not read: changed, when the failure proves it (the
 * request left a regular file of `written` bytes that read in its encoding), else unchecked.
 */
function unreadable(path: string, found: Extract<Found, { state: 'unreadable' }>, limit: number, written: number | undefined): Stale | Unchecked {
  switch (found.code) {
    case 'FILE_TOO_LARGE':
      // Read up to what the request wrote, past the limit: more than that is not what the request left.
      return written !== undefined
        ? { path, why: `grew past the ${written} bytes the request left it with` }
        : { path, code: found.code, why: `has more than ${limit} bytes, the size limit` };
    case 'IS_DIRECTORY':
    case 'NOT_REGULAR_FILE':
    case 'INVALID_ENCODING':
      return { path, why: `was changed (${found.detail})` };
    default:
      return { path, code: found.code, why: `cannot be read (${found.detail})` };
  }
}

/**
 * Why a file is not as the request left it (`expected` absent: the request left no file there).
 * Anything found where the request left no file, even a file that cannot be read, exists again.
 */
function changedSince(path: string, now: Found, expected: KeptText | undefined, digest: TextDigest): Stale | undefined {
  if (expected === undefined) {
    return now.state === 'absent' ? undefined : { path, why: 'exists again' };
  }
  switch (now.state) {
    case 'absent':
      return { path, why: 'was removed' };
    case 'present':
      return holdsKept(now.stored, expected, digest) ? undefined : { path, why: 'was changed' };
    case 'unreadable':
      // restorationOf answers a file the request left that cannot be read before it asks.
      return undefined;
  }
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

/** The first file's read code (FILE_TOO_LARGE, PERMISSION_DENIED, ...), naming every file undo could not read and why. */
function uncheckedEnvelope(entry: HistoryEntry, files: readonly Unchecked[], context: EngineContext, dryRun: boolean): ErrorEnvelope {
  const named = files.map((file) => `${context.displayPath(file.path)} ${file.why}`);
  const checked = files.length === 1 ? 'whether it changed since could not be checked' : 'whether they changed since could not be checked';
  return envelopeFor(files[0].code, `Cannot undo request ${entry.request_id}: ${named.join('; ')}, so ${checked}. No file was changed`, {
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
