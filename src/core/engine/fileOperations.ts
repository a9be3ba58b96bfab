/**
 * Plans a patch's file operations beside the updates: an added file must not exist,
 * a deleted file must be a file (and, when a diff states its text, hold exactly
 * that), and a moved file's destination must be free. Nothing is written here; the
 * store checks the same again when it commits.
 */
import type { EngineContext } from './engineContext';
import type { FileStat, StoreResult } from '../store/fileStore';
import type { FileOperation } from '../contract/schemas';
import type { PathCheckResult } from '../store/paths';
import { planFile, readWithinLimits, type FileTarget } from './planFile';
import { fileLevelFailure } from './planFailures';
import type { FilePlan, PlannedFile } from '../plan/filePlan';
import { wholeText } from '../text/editedText';

export interface OperationTarget extends FileTarget {
  readonly operation?: FileOperation;
  /** An added file's text. */
  readonly content?: string;
  /** A move's destination, checked and stat'ed like the source. */
  readonly destination?: { readonly requestedPath: string; readonly pathCheck: PathCheckResult; readonly stat: StoreResult<FileStat> };
}

const NOTHING: PlannedFile['original'] = { text: '', bom: false };

export async function planOperation(target: OperationTarget, context: EngineContext): Promise<FilePlan> {
  switch (target.operation) {
    case 'add':
      return planAdd(target, context);
    case 'delete':
      return planDelete(target, context);
    case 'move':
      return planMove(target, context);
    default: {
      const plan = await planFile(target, context);
      return plan.ok && target.operation ? { ...plan, file: { ...plan.file, operation: target.operation } } : plan;
    }
  }
}

function planAdd(target: OperationTarget, context: EngineContext): FilePlan {
  const refused = refusedPath(target, context);
  if (refused) {
    return refused;
  }
  const path = checkedPath(target);
  const displayPath = context.displayPath(path);
  if (target.stat.ok || target.stat.code !== 'FILE_NOT_FOUND') {
    return target.stat.ok ? fileExists(target, path, displayPath, 'the patch adds it', target.stat.value) : fileLevelFailure(target, path, displayPath, target.stat.code, target.stat.detail, []);
  }
  const file: PlannedFile = { path, displayPath, original: NOTHING, newText: wholeText(target.content ?? ''), editsApplied: 0, replacements: 0, applied: [], spans: [], operation: 'add' };
  return { ok: true, file, warnings: [] };
}

async function planDelete(target: OperationTarget, context: EngineContext): Promise<FilePlan> {
  const refused = refusedPath(target, context);
  if (refused) {
    return refused;
  }
  const path = checkedPath(target);
  const displayPath = context.displayPath(path);
  if (target.edits.length > 0) {
    const plan = await planFile(target, context);
    if (!plan.ok) {
      return plan;
    }
    if (plan.file.newText.length !== 0) {
      return fileLevelFailure(target, path, displayPath, 'MATCH_NOT_FOUND',
        `the diff deletes it, but the file holds more than the lines the diff removes (${plan.file.newText.length} characters would remain)`,
        ['Re-read the file; a diff that deletes a file must remove every line of it']);
    }
    return { ok: true, file: { ...plan.file, operation: 'delete' }, warnings: [] };
  }
  const read = await readWithinLimits(path, target.stat, context);
  if (!read.ok) {
    return fileLevelFailure(target, path, displayPath, read.code, read.detail, read.hints ?? []);
  }
  const file: PlannedFile = { path, displayPath, original: read.value, newText: wholeText(''), editsApplied: 0, replacements: 0, applied: [], spans: [], operation: 'delete' };
  return { ok: true, file, warnings: [] };
}

async function planMove(target: OperationTarget, context: EngineContext): Promise<FilePlan> {
  const plan = await planFile(target, context);
  const destination = target.destination;
  if (!plan.ok || destination === undefined) {
    return plan;
  }
  if (!destination.pathCheck.ok) {
    const { code, detail, hints, ownHintsOnly } = destination.pathCheck;
    return fileLevelFailure(target, destination.requestedPath, context.displayPath(destination.requestedPath), code, `the move's destination: ${detail}`, hints ?? [], undefined, ownHintsOnly);
  }
  const path = destination.pathCheck.path;
  const displayPath = context.displayPath(path);
  if (destination.stat.ok || destination.stat.code !== 'FILE_NOT_FOUND') {
    return destination.stat.ok
      ? fileExists(target, path, displayPath, `the patch moves ${plan.file.displayPath} there`, destination.stat.value)
      : fileLevelFailure(target, path, displayPath, destination.stat.code, destination.stat.detail, []);
  }
  return { ...plan, file: { ...plan.file, path, displayPath, operation: 'move', movedFrom: plan.file.path } };
}

function refusedPath(target: OperationTarget, context: EngineContext): FilePlan | undefined {
  if (target.pathCheck.ok) {
    return undefined;
  }
  const { code, detail, hints, ownHintsOnly } = target.pathCheck;
  return fileLevelFailure(target, target.requestedPath, context.displayPath(target.requestedPath), code, detail, hints ?? [], undefined, ownHintsOnly);
}

function checkedPath(target: OperationTarget): string {
  return target.pathCheck.ok ? target.pathCheck.path : target.requestedPath;
}

function fileExists(target: OperationTarget, path: string, displayPath: string, why: string, stat: FileStat): FilePlan {
  const what = stat.kind === 'directory' ? 'a directory' : 'a file';
  return fileLevelFailure(target, path, displayPath, 'FILE_EXISTS', `${why}, but ${what} already exists there`, []);
}
