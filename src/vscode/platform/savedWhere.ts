/**
 * VS Code's document.save() writes through the document's path and follows links on
 * the way: a directory swapped for a link while it saves sends that one write wherever
 * the link leads. The save cannot be held to the checked directory, so it is confirmed
 * afterwards: the path must still resolve to the file planned, and that file must hold
 * the text just saved. A save that cannot be confirmed is reported, never passed over.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';

/** Tries while the path resolves elsewhere: a swap back within these few milliseconds still confirms the save. */
const CONFIRM_ATTEMPTS = 20;
const CONFIRM_PAUSE_MS = 2;

export type SaveConfirmation = { readonly confirmed: true } | { readonly confirmed: false; readonly why: string };

/** Where a read found a file: its real path and its identity (device and inode). */
export interface FilePlace {
  readonly realPath: string;
  readonly identity: string;
}

/** The place of the file a path names now, or undefined when it does not resolve. */
export async function placeOf(path: string): Promise<FilePlace | undefined> {
  try {
    const [realPath, stats] = await Promise.all([fs.realpath(path), fs.stat(path)]);
    return { realPath, identity: `${stats.dev}:${stats.ino}` };
  } catch {
    return undefined;
  }
}

/**
 * Not translated: the reasons become the envelope's message, read by models in the core's language.
 * Whether the save of `document` reached the file planned: read through one handle opened
 * on the path, that file is the planned one (same identity, or, after a save that replaced
 * the file, the same real path before and after) and holds the document's text.
 */
export async function confirmSavedAt(document: vscode.TextDocument, planned: FilePlace): Promise<SaveConfirmation> {
  const path = document.uri.fsPath;
  let lastSeen: string | undefined;
  for (let attempt = 0; attempt < CONFIRM_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_PAUSE_MS));
    }
    const before = await realPathOf(path);
    const read = await readThroughPath(path, document.encoding);
    const after = await realPathOf(path);
    lastSeen = after;
    const samePath = before === planned.realPath && after === planned.realPath;
    if (read === undefined || (read.identity !== planned.identity && !samePath)) {
      continue;
    }
    return read.text === document.getText()
      ? { confirmed: true }
      : { confirmed: false, why: 'the file planned does not hold the saved text: the save was written through a path that led elsewhere' };
  }
  return { confirmed: false, why: lastSeen === undefined ? 'the path no longer resolves to a file' : `the path now leads to ${lastSeen}, not to the file planned` };
}

async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await fs.realpath(path);
  } catch {
    return undefined;
  }
}

/** The file's identity and text, from one handle, decoded in the encoding the document was saved in. */
async function readThroughPath(path: string, encoding: string): Promise<{ identity: string; text: string } | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(path, 'r');
    const stats = await handle.stat();
    const bytes = await handle.readFile();
    return { identity: `${stats.dev}:${stats.ino}`, text: await vscode.workspace.decode(bytes, { encoding }) };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
