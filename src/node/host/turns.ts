/**
 * Calls of this process that name the same file take turns, whole (plan and commit),
 * in the order they arrived: each sees the text the one before it left, and none
 * waits out another's lock file. Calls on other files run side by side. Other
 * processes are still kept out by the store's lock files.
 */
import { type ParsedRequest, underRoot } from '../../core/index';
import { withDocumentLocks } from '../../shared/documentLocks';

/**
 * A call's turn is keyed by each path as named and resolved (as the engine resolves
 * it), not by the file it leads to, so finding it takes no look-up on disk: whether
 * the path may be edited is the engine's check to make, once, and again before it writes.
 */
export type TurnKey = (absoluteOrRelative: string) => string | undefined;

/** Runs `call` once every earlier call naming one of the same files has finished; a request that did not parse names none. */
export async function inTurn<T>(request: ParsedRequest | undefined, turnKey: TurnKey, root: string | undefined, call: () => Promise<T>): Promise<T> {
  return withDocumentLocks(request ? targetsOf(request, turnKey, root) : [], call);
}

/** The files a request names (a move's destination too), resolved as the engine will resolve them. */
function targetsOf(request: ParsedRequest, turnKey: TurnKey, root: string | undefined): string[] {
  const named = request.files.flatMap((file) => (file.moveTo === undefined ? [file.filePath] : [file.filePath, file.moveTo]));
  return named.flatMap((path) => turnKey(request.rootRelative ? underRoot(root, path) : path) ?? []);
}
