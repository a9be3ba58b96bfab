/**
 * A path written with backslashes (on Windows, or pasted from it) that names an
 * existing file once its separators are forward slashes: "/repo\src\app.ts", or
 * "C:\repo\src\app.ts" for a file at "/repo/src/app.ts". A fact about the file
 * system, found with one path check and one stat per reading.
 */
import type { EngineContext } from './engineContext';
import { retryWhileBusy } from './retry';

/** The existing file the path names with forward slashes, as the store resolves it; undefined when none. */
export async function existingFileMeant(path: string, context: EngineContext): Promise<string | undefined> {
  if (!path.includes('\\')) {
    return undefined;
  }
  const slashed = path.replace(/\\/g, '/');
  const withoutDrive = slashed.replace(/^[A-Za-z]:(?=\/)/, '');
  for (const candidate of new Set([slashed, withoutDrive])) {
    const check = await context.checkPath(candidate);
    if (!check.ok) {
      continue;
    }
    const stat = await retryWhileBusy(() => context.store.stat(check.path), context.retry, context.sleep, context.isCancelled);
    if (stat.ok && stat.value.kind === 'file') {
      return check.path;
    }
  }
  return undefined;
}
