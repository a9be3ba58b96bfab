/**
 * Calls of this server that name the same file take turns, whole (plan and commit),
 * in the order they arrived: each sees the text the one before it left, and none
 * waits out another's lock file. Calls on other files run side by side. Other
 * processes are still kept out by the store's lock files.
 */
import { namedPaths, underRoot } from '../../core/index';
import { withDocumentLocks } from '../../shared/documentLocks';

/**
 * A call's turn is keyed by each path as named and resolved (as the engine resolves
 * it), not by the file it leads to, so finding it takes no look-up on disk: whether
 * the path may be edited is the engine's check to make, once, and again before it writes.
 */
export type TurnKey = (absoluteOrRelative: string) => string | undefined;

/** Runs `call` once every earlier call naming one of the same files has finished. */
export async function inTurn<T>(tool: string, args: unknown, turnKey: TurnKey, root: string | undefined, call: () => Promise<T>): Promise<T> {
  return withDocumentLocks(targetsOf(tool, args, turnKey, root), call);
}

/** The files a call names, resolved as the engine will resolve them; what does not resolve has no turn to wait for. */
function targetsOf(tool: string, args: unknown, turnKey: TurnKey, root: string | undefined): string[] {
  return namedPaths(tool, args).flatMap((path) => turnKey(underRoot(root, path)) ?? []);
}
