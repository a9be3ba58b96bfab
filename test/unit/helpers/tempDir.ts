/**
 * A temporary folder the suite's tests work in: made (and resolved through any symbolic link, so
 * it reads as the engine reports it) before each test, or once before the suite, and removed
 * once the suite is done with it. Call it in a describe block; the returned function gives the
 * folder while a test runs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TempDirOptions {
  /** 'each' (default): a fresh folder for every test; 'suite': one folder for the whole describe block. */
  readonly per?: 'each' | 'suite';
}

export function useTempDir(label: string, { per = 'each' }: TempDirOptions = {}): () => string {
  let folder: string | undefined;
  const make = (): void => {
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `multi-edit-${label}-`)));
  };
  const remove = (): void => {
    if (folder !== undefined) {
      fs.rmSync(folder, { recursive: true, force: true });
      folder = undefined;
    }
  };
  // A test's folder goes when the next test starts, and the last one after the suite: the suite's
  // own afterEach hooks, which run in the order they were declared, still find it (to close a server
  // working there, or to compare what is left in it).
  if (per === 'each') {
    beforeEach(() => {
      remove();
      make();
    });
  } else {
    before(make);
  }
  after(remove);
  return () => {
    if (folder === undefined) {
      throw new Error(`useTempDir('${label}'): the folder exists only while the suite runs`);
    }
    return folder;
  };
}
