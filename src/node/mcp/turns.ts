/**
 * Calls of this server that name the same file take turns, whole (plan and commit),
 * in the order they arrived: each sees the text the one before it left, and none
 * waits out another's lock file. Calls on other files run side by side. Other
 * processes are still kept out by the store's lock files.
 */
import { isRecord, type PathCheck } from '../../core/index';
import { withDocumentLocks } from '../../shared/documentLocks';

/** Runs `call` once every earlier call naming one of the same files has finished. */
export async function inTurn<T>(args: unknown, checkPath: PathCheck, call: () => Promise<T>): Promise<T> {
  return withDocumentLocks(await targetsOf(args, checkPath), call);
}

/** The files a call names, resolved as the engine will resolve them; what does not resolve has no turn to wait for. */
async function targetsOf(args: unknown, checkPath: PathCheck): Promise<string[]> {
  const requested = requestedPaths(args);
  const checked = await Promise.all(requested.map((path) => checkPath(path)));
  return checked.flatMap((result) => (result.ok ? [result.path] : []));
}

function requestedPaths(args: unknown): string[] {
  if (!isRecord(args)) {
    return [];
  }
  const entries = Array.isArray(args.files) ? args.files : [args];
  return entries.flatMap((entry) => (isRecord(entry) && typeof entry.file_path === 'string' ? [entry.file_path] : []));
}
