/**
 * The one-pass floor of a request: read each file, scan it once, write it. No
 * engine can do less and still look at every character. Also a program: run as
 * `node floor.js FILE...`, it is the floor as a whole process.
 */
import { readFile, writeFile } from 'node:fs/promises';

/** A needle the text never holds, so the scan reads to the end. */
const ABSENT = '\u0000 this needle is never in the text';

export async function onePassFloor(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const text = await readFile(path, 'utf8');
    if (text.indexOf(ABSENT) !== -1) {
      throw new Error(`the floor found its absent needle in ${path}`);
    }
    await writeFile(path, text, 'utf8');
  }
}

if (require.main === module) {
  onePassFloor(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  });
}
