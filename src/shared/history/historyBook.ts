/**
 * The history of applied requests under one root, kept in the user's state folder
 * (never in the workspace), readable and writable by its owner only. The CLI, the MCP
 * server and the extension keep one history per root, so a request applied from one
 * can be listed and undone from another.
 *
 * Protocol (the store's, in small): a request's record is written and synced as
 * `<id>.pending.json` before its commit publishes anything; once the commit succeeds
 * it is renamed to `<id>.json`; when the commit fails it is removed. A crash between
 * the two leaves a pending record, which the next opening settles by looking at the
 * files: all as the request left them, the record is kept; all as they were before,
 * it is dropped; anything else, it stays pending until the store's own recovery has
 * put the files back one way or the other. So a request is never applied without its
 * record, and a record is never offered for undo without its request.
 *
 * An undo is kept the same way: `<id>.undoing` is written and synced before the undo's
 * commit, and removed once the record says undone (or the undo failed). A crash between
 * leaves the marker, which the next opening settles by the files: all as before the
 * request, the record is marked undone; all as the request left them, the marker goes
 * and the request stays undoable. So a request is never undone without its record saying so.
 *
 * A large text a file held before the request is not encoded into the record: where the
 * store can, the record names a hard link to the file's old inode (`<id>.<n>.<pid>.original`),
 * which the store's commit leaves untouched since it renames the new text over the path.
 * Where it cannot (VS Code's store: a document's text need not be what its file holds), a
 * UTF-8 text is written to that name as the bytes the file would hold. Either is on disk
 * before the pending record is synced, and goes with its record.
 *
 * Bounds: at most `maxRequests` records and `maxBytes` of them and their links; the oldest go first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { encodableSlices, type FileStore, type HistoryEntry, type HistoryFile, holdsKept, newRequestId, type TextByteLength, type TextDigest, wholeText } from '../../core/index';
import { utf8ByteLength } from '../utf8Bytes';

/** How a store gives a file's bytes a second name without copying them (FileStore.linkOriginal). */
export type LinkOriginal = (path: string, keepAt: string) => Promise<boolean>;

export interface HistoryBounds {
  readonly maxRequests: number;
  readonly maxBytes: number;
}

export const DEFAULT_HISTORY_BOUNDS: HistoryBounds = { maxRequests: 100, maxBytes: 256 * 1024 * 1024 };

/** The environment's say over the history: off, another folder, other bounds. */
export interface HistorySettings {
  readonly enabled: boolean;
  /** The folder that holds every root's history. */
  readonly folder: string;
  readonly bounds: HistoryBounds;
}

const FINAL = '.json';
const PENDING = '.pending.json';
const UNDOING = '.undoing';
const TEMPORARY = '.tmp';
const ORIGINAL = '.original';
/**
 * A text this long or longer is kept by a link to the file where the store can make one: a
 * link costs a few system calls (tens of µs) whatever the size, while copying a text into the
 * record costs about 8 ns a byte (encoding 10 MB and syncing it: 160 ms), so from a few KB on
 * the link is cheaper. Where no link can be made, a UTF-8 text this long is written beside the
 * record a slice at a time through one reused buffer, hashed as it goes: writing the pending record
 * of a request on 1 MB of text took 15.2-15.8 ms of CPU with the text in it (JSON's escaping, then a
 * fresh buffer the record's size), 3.3-4.0 ms with it beside. Shorter texts stay in the record, one
 * file fewer in the folder.
 */
const LINKED_TEXT_MIN_CHARS = 8 * 1024;
const OWNER_ONLY_FILE = 0o600;
const OWNER_ONLY_FOLDER = 0o700;

/**
 * A text is hashed a slice at a time, each encoded into one buffer kept for the next: hashing
 * a string encodes it into memory the process has never touched, and faulting that in cost
 * more than the hashing (1 MB: 3.7 ms against 0.8 ms; 10 MB whole: 40 ms).
 */
const SLICE_CHARS = 1 << 16;
/** UTF-8 takes at most 3 bytes for each UTF-16 unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_BYTES_PER_UNIT = 3;
const sliceBytes = Buffer.allocUnsafeSlow((SLICE_CHARS + 1) * MAX_UTF8_BYTES_PER_UNIT);

/**
 * Writes `text` at `path` (a fresh name) as a UTF-8 file holds it, BOM first when it has one,
 * synced, with the digest sha256Text gives, from the same slices.
 */
async function writeUtf8Copy(path: string, text: string, bom: boolean): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  const handle = await fs.open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, OWNER_ONLY_FILE);
  // Not sliceBytes: the copy awaits between writes, and another record may hash meanwhile.
  const buffer = spareCopyBuffer ?? Buffer.allocUnsafeSlow(COPY_BUFFER_BYTES);
  spareCopyBuffer = undefined;
  let bytes = 0;
  try {
    let filled = bom ? UTF8_BOM.copy(buffer) : 0;
    let slices = 0;
    for (const slice of encodableSlices(wholeText(text), SLICE_CHARS)) {
      const length = buffer.write(slice, filled, 'utf8');
      hash.update(buffer.subarray(filled, filled + length));
      filled += length;
      if (++slices % COPY_BUFFER_SLICES === 0) {
        bytes += await writeAll(handle, buffer.subarray(0, filled));
        filled = 0;
      }
    }
    bytes += await writeAll(handle, buffer.subarray(0, filled));
    await handle.sync();
  } finally {
    spareCopyBuffer = buffer;
    await handle.close();
  }
  return { bytes, sha256: hash.digest('hex') };
}

async function writeAll(handle: fs.FileHandle, bytes: Buffer): Promise<number> {
  for (let written = 0; written < bytes.length;) {
    written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
  }
  return bytes.length;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Slices encoded before each write of a copy: 256 KB to 768 KB a write, by the characters' sizes. */
const COPY_BUFFER_SLICES = 4;
const COPY_BUFFER_BYTES = UTF8_BOM.length + COPY_BUFFER_SLICES * (SLICE_CHARS + 1) * MAX_UTF8_BYTES_PER_UNIT;
/** The buffer of the last copy, kept for the next: memory a process has touched costs no page faults to fill again. */
let spareCopyBuffer: Buffer | undefined;

/** No lone surrogate: UTF-8 would write one as U+FFFD, so such a text stays in the record (JSON keeps it). */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

export const sha256Text: TextDigest = (text) => {
  const hash = createHash('sha256');
  for (const slice of encodableSlices(text, SLICE_CHARS)) {
    hash.update(sliceBytes.subarray(0, sliceBytes.write(slice, 0, 'utf8')));
  }
  return hash.digest('hex');
};

/** UTF-16 by the names the stores give it (the Node store's, VS Code's), without case or punctuation: two bytes a unit. */
const UTF16_NAMES = new Set(['utf16le', 'utf16be', 'ucs2']);

/**
 * The bytes a text is written as, BOM included: exact for UTF-8 (no encoding named) and
 * UTF-16; undefined for any other encoding, whose size only encoding the text would tell.
 */
export const storedByteLength: TextByteLength = (text, bom, encoding) => {
  const bare = encoding?.toLowerCase().replace(/[^0-9a-z]/g, '');
  if (bare === undefined || bare === 'utf8' || bare === 'utf8bom') {
    return utf8ByteLength(text) + (bom ? 3 : 0);
  }
  return UTF16_NAMES.has(bare) ? 2 * text.length + (bom ? 2 : 0) : undefined;
};

/** A fresh request id: sortable by time. */
export function requestId(): string {
  return newRequestId(new Date(), () => randomBytes(4).readUInt32BE(0) / 2 ** 32);
}

/**
 * Where histories live: MULTI_EDIT_HISTORY_DIR when set, else the platform's state
 * folder (XDG_STATE_HOME or ~/.local/state; %LOCALAPPDATA%; ~/Library/Application Support).
 */
export function historyFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.MULTI_EDIT_HISTORY_DIR) {
    return env.MULTI_EDIT_HISTORY_DIR;
  }
  const base = platform === 'win32'
    ? env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local')
    : platform === 'darwin'
      ? join(homedir(), 'Library', 'Application Support')
      : env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(base, 'multi-edit', 'history');
}

/** The settings from the environment (MULTI_EDIT_NO_HISTORY, MULTI_EDIT_HISTORY_MAX_REQUESTS, MULTI_EDIT_HISTORY_MAX_BYTES). */
export function historySettingsFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: { readonly enabled?: boolean } = {}): HistorySettings {
  const off = env.MULTI_EDIT_NO_HISTORY !== undefined && env.MULTI_EDIT_NO_HISTORY !== '' && env.MULTI_EDIT_NO_HISTORY !== '0';
  return {
    enabled: overrides.enabled ?? !off,
    folder: historyFolder(env),
    bounds: {
      maxRequests: positiveInteger(env.MULTI_EDIT_HISTORY_MAX_REQUESTS) ?? DEFAULT_HISTORY_BOUNDS.maxRequests,
      maxBytes: positiveInteger(env.MULTI_EDIT_HISTORY_MAX_BYTES) ?? DEFAULT_HISTORY_BOUNDS.maxBytes,
    },
  };
}

function positiveInteger(value: string | undefined): number | undefined {
  const parsed = value === undefined ? NaN : Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
}

/** The folder of one root's history: named by a digest of the root, with the root written inside. */
function rootFolder(folder: string, root: string): string {
  return join(folder, createHash('sha256').update(root, 'utf8').digest('hex').slice(0, 24));
}

export class HistoryBook {
  /**
   * The sizes of the records and links seen, by name: a long-lived book (the extension's, the
   * server's) stats only the names it has not seen at each commit, not every record again.
   * A size a rewrite changed (undone_at) is a few bytes off at most until it is forgotten.
   */
  private readonly sizes = new Map<string, number>();

  private constructor(readonly root: string, private readonly folder: string, private readonly bounds: HistoryBounds) {}

  /** The history of `root` (a real, absolute path), created owner-only on first use. */
  static async open(settings: HistorySettings, root: string): Promise<HistoryBook> {
    const folder = rootFolder(settings.folder, root);
    await fs.mkdir(folder, { recursive: true, mode: OWNER_ONLY_FOLDER });
    // mkdir's mode is masked and leaves existing parents alone: the leaf is made owner-only here.
    await fs.chmod(settings.folder, OWNER_ONLY_FOLDER).catch(() => undefined);
    await fs.chmod(folder, OWNER_ONLY_FOLDER);
    // Written once: a command that only reads or records does not rewrite (and sync) it each time.
    const rootFile = join(folder, 'root.txt');
    if ((await fs.readFile(rootFile, 'utf8').catch(() => undefined)) !== `${root}\n`) {
      await writeDurably(rootFile, `${root}\n`, folder);
    }
    return new HistoryBook(root, folder, settings.bounds);
  }

  /**
   * Writes a request's record as pending, synced, before its commit publishes. False
   * when it is too large for the bounds: the request is then applied without a record.
   */
  async begin(entry: Omit<HistoryEntry, 'root'>, linkOriginal?: LinkOriginal): Promise<boolean> {
    const id = entry.request_id;
    try {
      const { files, keptBytes } = await this.keepOriginals(id, entry.files, linkOriginal);
      // Encoded once: its size is the bound's measure and its bytes are what is written.
      const record = Buffer.from(JSON.stringify({ ...entry, files, root: this.root }), 'utf8');
      if (record.length + keptBytes > this.bounds.maxBytes) {
        await this.removeOriginals(id);
        return false;
      }
      await writeDurably(this.file(id, PENDING), record, this.folder);
      return true;
    } catch (error) {
      await this.removeOriginals(id);
      throw error;
    }
  }

  /**
   * The files of a record with each large text before the request kept beside it: by a link to
   * the file where one can be made, else by a copy of a UTF-8 text (any other stays in the record).
   */
  private async keepOriginals(id: string, files: readonly HistoryFile[], linkOriginal: LinkOriginal | undefined): Promise<{ files: HistoryFile[]; keptBytes: number }> {
    let keptBytes = 0;
    const kept: HistoryFile[] = [];
    for (const [index, file] of files.entries()) {
      if (file.before?.text === undefined || file.before.text.length < LINKED_TEXT_MIN_CHARS) {
        kept.push(file);
        continue;
      }
      const { text, ...shape } = file.before;
      const name = `${id}.${index}.${process.pid}${ORIGINAL}`;
      const keptAt = join(this.folder, name);
      const beside = linkOriginal && (await linkOriginal(file.moved_from ?? file.path, keptAt))
        ? { bytes: (await fs.stat(keptAt)).size, sha256: sha256Text(wholeText(text)) }
        : shape.encoding === undefined && isWellFormed(text) ? await writeUtf8Copy(keptAt, text, shape.bom) : undefined;
      if (!beside) {
        kept.push(file);
        continue;
      }
      keptBytes += beside.bytes;
      kept.push({ ...file, before: { ...shape, sha256: beside.sha256, original: name } });
    }
    return { files: kept, keptBytes };
  }

  /**
   * The entry with the text of each original kept beside it (a link or a copy) read back
   * (through `store`, in the file's encoding) and checked against its digest. One that is gone
   * or holds other bytes leaves that file without a kept text, which undo reports.
   */
  async withOriginals(entry: HistoryEntry, store: Pick<FileStore, 'read'>): Promise<HistoryEntry> {
    const files = await Promise.all(entry.files.map(async (file): Promise<HistoryFile> => {
      if (file.before?.original === undefined) {
        return file;
      }
      const { original, ...kept } = file.before;
      // Only a name this book makes: never a path that leads out of the history's folder.
      if (basename(original) !== original || !original.endsWith(ORIGINAL)) {
        return { ...file, before: kept };
      }
      const stored = await store.read(join(this.folder, original), undefined, kept.encoding);
      const holds = stored.ok && stored.value.bom === kept.bom && sha256Text(wholeText(stored.value.text)) === kept.sha256;
      return { ...file, before: holds ? { ...kept, text: stored.value.text } : kept };
    }));
    return { ...entry, files };
  }

  /**
   * The commit succeeded: the record becomes part of the history, and the oldest records past
   * the bounds go. The rename is not synced: should it be lost, the record is pending again
   * and the next opening keeps it, since the files hold the request.
   */
  async commit(id: string): Promise<void> {
    await fs.rename(this.file(id, PENDING), this.file(id, FINAL));
    await this.evict();
  }

  /** The commit failed: nothing was applied, so nothing is kept. */
  async abandon(id: string): Promise<void> {
    await fs.rm(this.file(id, PENDING), { force: true });
    await this.removeOriginals(id);
  }

  private async removeOriginals(id: string, names?: readonly string[]): Promise<void> {
    for (const name of originalsOf(names ?? (await this.names()), id)) {
      await fs.rm(join(this.folder, name), { force: true });
    }
  }

  /**
   * Every settled record, in the order the requests committed (a record whose undo a crash left
   * unsettled is left out until it settles). A record's time is taken as its commit begins, under
   * the files' locks; its id is drawn when the request starts, so requests racing for one file may
   * commit in another order than their ids.
   */
  async entries(): Promise<HistoryEntry[]> {
    const entries: HistoryEntry[] = [];
    const undoing = new Set(await this.ids(UNDOING));
    for (const id of (await this.ids(FINAL)).filter((candidate) => !undoing.has(candidate))) {
      const entry = await this.read(this.file(id, FINAL));
      if (entry) entries.push(entry);
    }
    return entries.sort(byCommit);
  }

  /** Marks a record undone, so the default undo moves on to the one before it. */
  async markUndone(entry: HistoryEntry, at: Date): Promise<void> {
    await writeDurably(this.file(entry.request_id, FINAL), JSON.stringify({ ...entry, undone_at: at.toISOString() }), this.folder);
  }

  /** Says, synced, that request `id` is about to be undone: before the undo's commit publishes anything. */
  async beginUndo(id: string): Promise<void> {
    await writeDurably(this.file(id, UNDOING), `${new Date().toISOString()}\n`, this.folder);
  }

  /** The undo of request `id` is over: marked undone when it went through (`at`), else left as it was. */
  async endUndo(entry: HistoryEntry, at: Date | undefined): Promise<void> {
    if (at !== undefined) {
      await this.markUndone(entry, at);
    }
    await fs.rm(this.file(entry.request_id, UNDOING), { force: true });
    await syncFolder(this.folder);
  }

  /**
   * Settles the records a crash left pending, by what the files hold now: kept when
   * every file is as the request left it, dropped when every file is as it was before.
   */
  async settle(store: Pick<FileStore, 'read'>, digest: TextDigest): Promise<void> {
    for (const id of await this.ids(PENDING)) {
      const path = this.file(id, PENDING);
      const entry = await this.read(path);
      if (!entry) {
        await fs.rm(path, { force: true });
        continue;
      }
      const verdict = await settledState(entry.files, store, digest);
      if (verdict === 'applied') {
        await this.commit(id);
      } else if (verdict === 'not applied') {
        await this.abandon(id);
      }
    }
    await this.removeLeftovers();
    for (const id of await this.ids(UNDOING)) {
      const entry = await this.read(this.file(id, FINAL));
      const verdict = entry && entry.undone_at === undefined ? await settledState(entry.files, store, digest) : 'not applied';
      if (verdict !== 'unsettled') {
        // Files as before the request: the undo went through; as it left them: it did not.
        await (entry ? this.endUndo(entry, entry.undone_at === undefined && verdict === 'not applied' ? new Date() : undefined) : fs.rm(this.file(id, UNDOING), { force: true }));
      }
    }
  }

  /**
   * What writers killed mid-way left: temporary files before their rename (writeDurably names
   * each by its process), and links to originals whose record was never written.
   */
  private async removeLeftovers(): Promise<void> {
    const names = await this.names();
    const recorded = new Set([...idsIn(names, FINAL), ...idsIn(names, PENDING)]);
    for (const name of names) {
      const parts = name.split('.');
      const pid = name.endsWith(TEMPORARY) ? Number(parts.at(-3)) : name.endsWith(ORIGINAL) && !recorded.has(parts[0]) ? Number(parts.at(-2)) : NaN;
      if (Number.isSafeInteger(pid) && !isRunning(pid)) {
        await fs.rm(join(this.folder, name), { force: true });
      }
    }
  }

  private async evict(): Promise<void> {
    const names = await this.names();
    const ids = idsIn(names, FINAL);
    const present = new Set(names);
    for (const name of this.sizes.keys()) {
      if (!present.has(name)) this.sizes.delete(name);
    }
    // One pass over the names, and a stat only for a file not sized before: a server calls this after every request.
    const originals = originalsById(names, ids);
    const filesOf = (id: string): string[] => [`${id}${FINAL}`, ...(originals.get(id) ?? [])];
    const unsized = ids.flatMap(filesOf).filter((name) => !this.sizes.has(name));
    await Promise.all(unsized.map(async (name) => this.sizes.set(name, await fs.stat(join(this.folder, name)).then((stats) => stats.size, () => 0))));
    const sizes = ids.map((id) => filesOf(id).reduce((sum, name) => sum + (this.sizes.get(name) ?? 0), 0));
    let total = sizes.reduce((sum, size) => sum + size, 0);
    let count = ids.length;
    for (const [index, id] of ids.entries()) {
      if (count <= this.bounds.maxRequests && total <= this.bounds.maxBytes) {
        break;
      }
      await fs.rm(this.file(id, FINAL), { force: true });
      await this.removeOriginals(id, names);
      count -= 1;
      total -= sizes[index];
    }
  }

  /** The ids of the records with this suffix, oldest first (ids sort by time). */
  private async ids(suffix: string): Promise<string[]> {
    return idsIn(await this.names(), suffix);
  }

  private names(): Promise<string[]> {
    return fs.readdir(this.folder).catch(() => [] as string[]);
  }

  private file(id: string, suffix: string): string {
    return join(this.folder, `${id}${suffix}`);
  }

  private async read(path: string): Promise<HistoryEntry | undefined> {
    try {
      const { parseHistoryEntry } = await import('./historyRecord.js');
      return parseHistoryEntry(JSON.parse(await fs.readFile(path, 'utf8')));
    } catch {
      return undefined;
    }
  }
}

/** The ids of the records with this suffix among `names`, oldest first (ids sort by time). */
function idsIn(names: readonly string[], suffix: string): string[] {
  return names
    .filter((name) => name.endsWith(suffix) && (suffix === PENDING || !name.endsWith(PENDING)))
    .map((name) => name.slice(0, -suffix.length))
    .sort();
}

/** The originals kept beside each of the records `ids` among `names`, as originalsOf finds them, in one pass. */
function originalsById(names: readonly string[], ids: readonly string[]): Map<string, string[]> {
  const known = new Set(ids);
  const byId = new Map<string, string[]>();
  for (const name of names) {
    if (!name.endsWith(ORIGINAL)) {
      continue;
    }
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const id = name.slice(0, dot);
      if (known.has(id)) {
        byId.set(id, [...(byId.get(id) ?? []), name]);
        break;
      }
    }
  }
  return byId;
}

/** The links to originals of record `id` among `names`. */
function originalsOf(names: readonly string[], id: string): string[] {
  return names.filter((name) => name.startsWith(`${id}.`) && name.endsWith(ORIGINAL));
}

/** What a pending record's files hold now. */
async function settledState(files: readonly HistoryFile[], store: Pick<FileStore, 'read'>, digest: TextDigest): Promise<'applied' | 'not applied' | 'unsettled'> {
  let applied = true;
  let untouched = true;
  for (const file of files) {
    // Read in the encoding the request found the file in, as undo reads it.
    const encoding = file.after?.encoding ?? file.before?.encoding;
    const holds = async (path: string, kept: HistoryFile['before']): Promise<boolean> => {
      const read = await store.read(path, undefined, encoding);
      if (!read.ok) {
        return kept === undefined && read.code === 'FILE_NOT_FOUND';
      }
      return kept !== undefined && holdsKept(read.value, kept, digest);
    };
    const beforePath = file.moved_from ?? file.path;
    applied &&= (await holds(file.path, file.after)) && (file.moved_from === undefined || (await holds(file.moved_from, undefined)));
    untouched &&= (await holds(beforePath, file.before)) && (file.moved_from === undefined || (await holds(file.path, undefined)));
  }
  return applied ? 'applied' : untouched ? 'not applied' : 'unsettled';
}

/** Oldest commit first: by the record's time, then by id (ISO times and ids both sort as text). */
export function byCommit(a: HistoryEntry, b: HistoryEntry): number {
  return a.time < b.time ? -1 : a.time > b.time ? 1 : a.request_id < b.request_id ? -1 : a.request_id > b.request_id ? 1 : 0;
}

/** Writes a whole file owner-only: a fresh temporary name, synced, renamed over, and the folder synced. */
async function writeDurably(path: string, content: string | Uint8Array, folder: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}${TEMPORARY}`;
  const handle = await fs.open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, OWNER_ONLY_FILE);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temporary, path);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

/** Whether process `pid` is running (one that exists but is not ours to signal counts). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes a rename in the folder durable where the platform can (Windows cannot open a folder to sync it). */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') {
    return;
  }
  const handle = await fs.open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
