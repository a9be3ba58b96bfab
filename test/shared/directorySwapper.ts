/**
 * Another process that swaps a directory for a symbolic link to elsewhere and back, holding
 * each state for a random moment (up to 2 ms), so that requests running meanwhile are caught
 * at every step from their path check to their rename. Used by the MCP and the extension-host
 * race tests.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';

const SWAP_LOOP = `
  const fs = require('fs');
  const [dir, held, out] = process.argv.slice(1);
  const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.random() * 2);
  for (;;) {
    try { fs.renameSync(dir, held); fs.symlinkSync(out, dir); pause(); fs.unlinkSync(dir); fs.renameSync(held, dir); pause(); } catch {}
  }`;

export interface DirectorySwapper {
  /** Stops the process and puts the directory back where it was. */
  stop(): Promise<void>;
}

/** Swaps `dir` (moved aside to `held`) for a link to `outside` until stopped. */
export function startDirectorySwapper(dir: string, held: string, outside: string): DirectorySwapper {
  const child = spawn(process.execPath, ['-e', SWAP_LOOP, dir, held, outside], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      child.kill('SIGKILL');
      await exited;
      if (fs.existsSync(held)) {
        // Between a swap's two steps the name is free, and a call that adds a file may create it as a real folder:
        // what landed there landed inside, so it joins the held folder before the folder goes back.
        if (fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
          for (const name of fs.readdirSync(dir)) {
            fs.renameSync(`${dir}/${name}`, `${held}/${name}`);
          }
        }
        fs.rmSync(dir, { force: true, recursive: true });
        fs.renameSync(held, dir);
      }
    },
  };
}
