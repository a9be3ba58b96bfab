/**
 * An in-memory FileStore with fault injection, for engine tests. Any operation on
 * any path can fail with any code, a number of times or always; FILE_BUSY can clear
 * after N attempts; the Nth write can fail. MemoryStore commits one change at a time
 * and undoes the ones already made when one fails (helpers/oneByOneCommit.ts);
 * AtomicMemoryStore commits all of them at once, like one WorkspaceEdit.
 */
import type { ErrorCode } from '../../../src/core/contract/errorCodes';
import type { FileStat, FileStore, PlannedChange, StoreResult, StoredText } from '../../../src/core/store/fileStore';
import { commitOneByOne } from './oneByOneCommit';

export type StoreOperation = 'stat' | 'read' | 'write' | 'commit';

export interface Fault {
  readonly code: ErrorCode;
  readonly detail?: string;
  /** How many calls fail before the operation succeeds again; every call when absent. */
  readonly times?: number;
}

interface StoredFile {
  text: string;
  bom: boolean;
  version: number;
}

/** A file as the tests give it: its text, or its text and BOM. */
export type FileSeed = string | { readonly text: string; readonly bom: boolean };

export class MemoryStore implements FileStore {
  /** Every call, as "operation path". */
  readonly calls: string[] = [];
  /** Every change applied, in order. */
  readonly writes: PlannedChange[] = [];
  private readonly files = new Map<string, StoredFile>();
  private readonly directories = new Set<string>();
  private readonly specials = new Set<string>();
  private readonly faults = new Map<string, { fault: Fault; left: number }>();
  private writeCount = 0;
  private failingWrite?: { readonly nth: number; readonly fault: Fault };

  constructor(seeds: Readonly<Record<string, FileSeed>> = {}) {
    for (const [path, seed] of Object.entries(seeds)) {
      this.put(path, seed);
    }
  }

  /** Creates or replaces a file, as another program would: its version changes. */
  put(path: string, seed: FileSeed): void {
    const { text, bom } = typeof seed === 'string' ? { text: seed, bom: false } : seed;
    const version = (this.files.get(path)?.version ?? 0) + 1;
    this.files.set(path, { text, bom, version });
  }

  /** The names of the files and directories directly inside `directory`. */
  async listNames(directory: string): Promise<StoreResult<readonly string[]>> {
    const prefix = directory.endsWith('/') ? directory : `${directory}/`;
    if (!this.directories.has(directory)) {
      return { ok: false, code: 'FILE_NOT_FOUND', detail: 'no such directory' };
    }
    const names = [...this.files.keys(), ...this.directories].filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'));
    return { ok: true, value: names.map((path) => path.slice(prefix.length)) };
  }

  addDirectory(path: string): void {
    this.directories.add(path);
  }

  /** Makes `path` stat as a FIFO or device would; reading it is a test failure. */
  markSpecial(path: string): void {
    this.specials.add(path);
  }

  /** `path` '*' matches every path. */
  failOn(operation: StoreOperation, path: string, fault: Fault): void {
    this.faults.set(`${operation} ${path}`, { fault, left: fault.times ?? Infinity });
  }

  /** The `nth` write (1-based, counting every write attempt) fails with `fault`. */
  failNthWrite(nth: number, fault: Fault): void {
    this.failingWrite = { nth, fault };
  }

  text(path: string): string | undefined {
    return this.files.get(path)?.text;
  }

  hasBom(path: string): boolean | undefined {
    return this.files.get(path)?.bom;
  }

  /** Every file's text and BOM, for "nothing changed" checks. */
  snapshot(): Map<string, string> {
    return new Map([...this.files].map(([path, file]) => [path, `${file.bom ? '\uFEFF' : ''}${file.text}`]));
  }

  async stat(path: string): Promise<StoreResult<FileStat>> {
    const fault = this.takeFault('stat', path);
    if (fault) {
      return fault;
    }
    if (this.directories.has(path)) {
      return { ok: true, value: { kind: 'directory', size: 0 } };
    }
    const file = this.files.get(path);
    return file ? { ok: true, value: { kind: this.specials.has(path) ? 'other' : 'file', size: byteSize(file) } } : notFound();
  }

  async read(path: string): Promise<StoreResult<StoredText>> {
    const fault = this.takeFault('read', path);
    if (fault) {
      return fault;
    }
    if (this.specials.has(path)) {
      throw new Error(`${path} is a special file and must never be read`);
    }
    const file = this.files.get(path);
    return file ? { ok: true, value: { text: file.text, bom: file.bom, version: file.version } } : notFound();
  }

  commit(changes: readonly PlannedChange[]): Promise<StoreResult<void>> {
    return commitOneByOne(changes, (change) => this.write(change));
  }

  /** Applies one change; its path is "write PATH" in the calls and the faults. */
  async write(change: PlannedChange): Promise<StoreResult<void>> {
    this.writeCount++;
    if (this.failingWrite?.nth === this.writeCount) {
      this.calls.push(`write ${change.path}`);
      return failure(this.failingWrite.fault);
    }
    const fault = this.takeFault('write', change.path);
    if (fault) {
      return fault;
    }
    const refused = this.refusal(change);
    if (refused) {
      return refused;
    }
    this.apply(change);
    return { ok: true, value: undefined };
  }

  /** What the store would answer at commit if the files changed since the plan. */
  protected refusal(change: PlannedChange): StoreResult<void> | undefined {
    const source = change.kind === 'move' ? change.from : change.path;
    if (change.kind !== 'add') {
      const current = this.files.get(source);
      if (!current) {
        return this.directories.has(source) ? { ok: false, code: 'IS_DIRECTORY', detail: 'the path is a directory' } : notFound();
      }
      if (change.original.version !== undefined && current.version !== change.original.version) {
        return { ok: false, code: 'STALE_CONTENT', detail: 'the file changed after it was read' };
      }
    }
    if ((change.kind === 'add' || change.kind === 'move') && (this.files.has(change.path) || this.directories.has(change.path))) {
      return { ok: false, code: 'FILE_EXISTS', detail: 'the path already exists' };
    }
    return undefined;
  }

  protected apply(change: PlannedChange): void {
    if (change.kind === 'delete' || change.kind === 'move') {
      this.files.delete(change.kind === 'move' ? change.from : change.path);
    }
    if (change.kind !== 'delete') {
      this.put(change.path, { text: change.text.whole(), bom: change.bom });
    }
    this.writes.push(change);
  }

  protected takeFault(operation: StoreOperation, path: string): StoreResult<never> | undefined {
    this.calls.push(`${operation} ${path}`);
    const entry = this.faults.get(`${operation} ${path}`) ?? this.faults.get(`${operation} *`);
    if (!entry || entry.left <= 0) {
      return undefined;
    }
    entry.left--;
    return failure(entry.fault);
  }
}

/** A store that commits every change at once, or none of them, like one WorkspaceEdit. */
export class AtomicMemoryStore extends MemoryStore {
  override async commit(changes: readonly PlannedChange[]): Promise<StoreResult<void>> {
    const fault = this.takeFault('commit', '*');
    if (fault) {
      return fault;
    }
    for (const change of changes) {
      const refused = this.refusal(change);
      if (refused) {
        return refused;
      }
    }
    changes.forEach((change) => this.apply(change));
    return { ok: true, value: undefined };
  }
}

function failure(fault: Fault): StoreResult<never> {
  return { ok: false, code: fault.code, detail: fault.detail ?? `injected ${fault.code}` };
}

function notFound(): StoreResult<never> {
  return { ok: false, code: 'FILE_NOT_FOUND', detail: 'no such file' };
}

function byteSize(file: StoredFile): number {
  return Buffer.byteLength(file.text, 'utf8') + (file.bom ? 3 : 0);
}
