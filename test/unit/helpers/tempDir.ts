/**
 * A temporary folder the suite's tests work in: made (and resolved through any symbolic link, so
 * it reads as the engine reports it) before each test, or once before the suite, and removed
 * after. Call it in a describe block; the returned function gives the folder while a test runs.
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
  if (per === 'each') {
    beforeEach(make);
    afterEach(remove);
  } else {
    before(make);
    after(remove);
  }
  return () => {
    if (folder === undefined) {
      throw new Error(`useTempDir('${label}'): the folder exists only while a test (or the suite's hooks) runs`);
    }
    return folder;
  };
}
