/**
 * A commit that stages while the syntax gate judges it: the Node store locks, writes
 * and syncs each new text, asks for the go-ahead while the sync runs, and publishes
 * only on a yes. A no, or a failure, leaves every file as it was and nothing beside it;
 * through the engine, every answer is the one the gate-first order gives.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runRequest } from '../../src/core/engine/engine';
import type { EngineOptions } from '../../src/core/engine/options';
import type { FileStore, PlannedChange, StoredText } from '../../src/core/store/fileStore';
import type { SyntaxChecker } from '../../src/core/syntax/syntaxChecker';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { useTempDir } from './helpers/tempDir';
import { wholeText } from '../../src/core/text/editedText';

/** Any "!!" in a text is a syntax error, in every file. */
const bangChecker: SyntaxChecker = {
  errorsIn: async (_path, text) => [...text.matchAll(/!!/g)].map((found) => ({ start: found.index, end: found.index + 2 })),
};

/** The same store without commitWhenCleared: the engine then runs the gate before it commits. */
function gateFirst(store: FileStore): FileStore {
  return {
    stat: (file) => store.stat(file),
    read: (file, maxBytes) => store.read(file, maxBytes),
    commit: (changes, isCancelled) => store.commit(changes, isCancelled),
  };
}

describe('a commit that waits for its go-ahead (Node store)', () => {
  const dir = useTempDir('cleared');

  const file = (name: string): string => path.join(dir(), name);
  const listing = (): string[] => fs.readdirSync(dir()).sort();
  const readStored = async (store: NodeFileStore, name: string): Promise<StoredText> => {
    const read = await store.read(file(name));
    assert.ok(read.ok, JSON.stringify(read));
    return read.value;
  };
  const update = async (store: NodeFileStore, name: string, text: string): Promise<PlannedChange> => {
    const original = await readStored(store, name);
    return { kind: 'update', path: file(name), text: wholeText(text), bom: original.bom, original };
  };

  it('asks once the new text is staged and locked, with the file untouched, and publishes on a yes', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    fs.chmodSync(file('a.ts'), 0o640);
    const store = new NodeFileStore();
    const seen: string[][] = [];
    const result = await store.commitWhenCleared([await update(store, 'a.ts', 'new\n')], async () => {
      seen.push([fs.readFileSync(file('a.ts'), 'utf8'), fs.readFileSync(file('.a.ts.multi-edit-new'), 'utf8'), String(fs.existsSync(file('.a.ts.multi-edit-lock')))]);
      return true;
    });
    assert.deepEqual(result, { ok: true, value: undefined });
    assert.deepEqual(seen, [['old\n', 'new\n', 'true']]);
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'new\n');
    assert.equal(fs.statSync(file('a.ts')).mode & 0o7777, 0o640);
    assert.deepEqual(listing(), ['a.ts']);
  });

  it('on a no, undoes the staging: CANCELLED, the file keeps its bytes, nothing is left beside it', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    const store = new NodeFileStore();
    const result = await store.commitWhenCleared([await update(store, 'a.ts', 'new\n')], async () => false);
    assert.ok(!result.ok);
    assert.equal(result.code, 'CANCELLED');
    assert.deepEqual([result.restored, result.unrestored], [undefined, undefined]);
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'old\n');
    assert.deepEqual(listing(), ['a.ts']);
  });

  it('several files: a no comes before the commit point, so every file stays old and no journal is left', async () => {
    fs.writeFileSync(file('a.ts'), 'a\n');
    fs.writeFileSync(file('b.ts'), 'b\n');
    const store = new NodeFileStore();
    const changes = [await update(store, 'a.ts', 'A\n'), await update(store, 'b.ts', 'B\n'), { kind: 'add', path: file('c.ts'), text: wholeText('c\n'), bom: false } as const];
    let marked: boolean | undefined;
    const result = await store.commitWhenCleared(changes, async () => {
      marked = fs.existsSync(file('.a.ts.multi-edit-commit'));
      return false;
    });
    assert.ok(!result.ok);
    assert.equal(result.code, 'CANCELLED');
    assert.equal(marked, false);
    assert.deepEqual([fs.readFileSync(file('a.ts'), 'utf8'), fs.readFileSync(file('b.ts'), 'utf8')], ['a\n', 'b\n']);
    assert.deepEqual(listing(), ['a.ts', 'b.ts']);
  });

  it('a file changed since it was read is STALE_CONTENT even on a yes, and keeps the other writer\'s text', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    const store = new NodeFileStore();
    const change = await update(store, 'a.ts', 'new\n');
    fs.writeFileSync(file('a.ts'), 'changed\n');
    const result = await store.commitWhenCleared([change], async () => true);
    assert.ok(!result.ok);
    assert.equal(result.code, 'STALE_CONTENT');
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'changed\n');
    assert.deepEqual(listing(), ['a.ts']);
  });

  describe('under the engine', () => {
    const edit = (name: string, oldString: string, newString: string): unknown => ({ file_path: file(name), edits: [{ old_string: oldString, new_string: newString }] });
    const options = (store: FileStore, overrides: Partial<EngineOptions> = {}): EngineOptions => ({ store, syntaxChecker: bangChecker, ...overrides });

    it('the gate parses the new text while the store syncs it: the staged file already holds it', async () => {
      fs.writeFileSync(file('a.ts'), 'let a = 1;\n');
      const stagedWhenParsed: string[] = [];
      const checker: SyntaxChecker = {
        errorsIn: async (_path, text) => {
          stagedWhenParsed.push(fs.existsSync(file('.a.ts.multi-edit-new')) ? fs.readFileSync(file('.a.ts.multi-edit-new'), 'utf8') : '(nothing staged)');
          return bangChecker.errorsIn(_path, text);
        },
      };
      const { response } = await runRequest('multi_edit', edit('a.ts', '1', '2'), options(new NodeFileStore(), { syntaxChecker: checker }));
      assert.ok(response.success, JSON.stringify(response));
      assert.deepEqual(stagedWhenParsed, ['let a = 2;\n']);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'let a = 2;\n');
      assert.deepEqual(listing(), ['a.ts']);
    });

    it('answers a refusal, a success, a warning and a dry run as the gate-first order does', async () => {
      const cases: { name: string; input: unknown; overrides?: Partial<EngineOptions> }[] = [
        { name: 'refused', input: edit('a.ts', 'b + c', 'b !! c') },
        { name: 'applied', input: edit('a.ts', 'b + c', 'b - c') },
        { name: 'warned', input: edit('a.ts', 'b + c', 'b !! c'), overrides: { syntaxCheck: 'warn' } },
        { name: 'dry run', input: { ...(edit('a.ts', 'b + c', 'b !! c') as object), dry_run: true } },
        {
          name: 'one of two files refused',
          input: { files: [{ file_path: file('a.ts'), edits: [{ old_string: 'b + c', new_string: 'b * c' }] }, { file_path: file('b.ts'), edits: [{ old_string: 'x', new_string: 'x!!' }] }] },
        },
      ];
      for (const { name, input, overrides } of cases) {
        const outcomes = [];
        for (const wrap of [(store: NodeFileStore): FileStore => store, gateFirst]) {
          fs.writeFileSync(file('a.ts'), 'const a = b + c;\n');
          fs.writeFileSync(file('b.ts'), 'let x = 1;\n');
          const tool = (input as { files?: unknown }).files ? 'multi_edit_files' : 'multi_edit';
          const run = await runRequest(tool, input, options(wrap(new NodeFileStore()), overrides));
          outcomes.push({ run, files: [fs.readFileSync(file('a.ts'), 'utf8'), fs.readFileSync(file('b.ts'), 'utf8')], listing: listing() });
        }
        assert.deepEqual(outcomes[0], outcomes[1], name);
        assert.deepEqual(outcomes[0].listing, ['a.ts', 'b.ts'], name);
      }
    });

    it('a refusal on a file another commit holds is answered at once, not after the busy retries', async () => {
      fs.writeFileSync(file('a.ts'), 'const a = b + c;\n');
      const holder = new NodeFileStore();
      let release: (go: boolean) => void = () => undefined;
      const held = new Promise<boolean>((resolve) => {
        release = resolve;
      });
      let holding: () => void = () => undefined;
      const locked = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const holderCommit = holder.commitWhenCleared([await update(holder, 'a.ts', 'const a = b - c;\n')], () => {
        holding();
        return held;
      });
      await locked;
      const sleeps: number[] = [];
      const { response } = await runRequest('multi_edit', edit('a.ts', 'b + c', 'b !! c'), options(new NodeFileStore(), {
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      }));
      release(false);
      assert.ok(!response.success);
      assert.equal(response.error_code, 'SYNTAX_REGRESSION');
      assert.deepEqual(sleeps, []);
      assert.equal((await holderCommit).ok, false);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'const a = b + c;\n');
      assert.deepEqual(listing(), ['a.ts']);
    });
  });
});
