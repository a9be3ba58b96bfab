/**
 * Calls of this server that name the same file take turns, whole (plan and commit),
 * in the order they arrived: each sees the text the one before it left, and none
 * waits out another's lock file. Calls on other files run side by side. Other
 * processes are still kept out by the store's lock files.
 */
import { namedPaths, underRoot, type PathCheck } from '../../core/index';
import { withDocumentLocks } from '../../shared/documentLocks';

/** Runs `call` once every earlier call naming one of the same files has finished. */
export async function inTurn<T>(tool: string, args: unknown, checkPath: PathCheck, root: string | undefined, call: () => Promise<T>): Promise<T> {
  return withDocumentLocks(await targetsOf(tool, args, checkPath, root), call);
}

/** The files a call names, resolved as the engine will resolve them; what does not resolve has no turn to wait for. */
async function targetsOf(tool: string, args: unknown, checkPath: PathCheck, root: string | undefined): Promise<string[]> {
  const checked = await Promise.all(namedPaths(tool, args).map((path) => checkPath(underRoot(root, path))));
  return checked.flatMap((result) => (result.ok ? [result.path] : []));
}
