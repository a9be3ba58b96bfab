/**
 * multi_edit_patch through the engine, on an in-memory store: each construct of the
 * three formats, and each failure with the fields an agent needs to find its hunk.
 */
import * as assert from 'node:assert/strict';
import type { EngineOptions } from '../../../src/core/engine/options';
import { createPathCheck } from '../../../src/shared/pathPolicy';
import type { ErrorEnvelope, SuccessResponse } from '../../../src/core/contract/schemas';
import { failureOf, run, successOf } from '../helpers/engineRun';
import { MemoryStore } from '../helpers/memoryStore';

const ROOT = '/work';

function optionsFor(store: MemoryStore): EngineOptions {
  return {
    store,
    root: ROOT,
    checkPath: createPathCheck({ folders: [{ name: 'work', path: ROOT }], protectedGlobs: ['**/.git/**'], allowOutsideWorkspace: false }),
    displayPath: (path) => path.replace(`${ROOT}/`, ''),
  };
}

async function apply(store: MemoryStore, patch: string, dryRun = false): Promise<SuccessResponse> {
  return successOf(await run('multi_edit_patch', { patch, ...(dryRun ? { dry_run: true } : {}) }, optionsFor(store)));
}

async function refuse(store: MemoryStore, patch: string): Promise<ErrorEnvelope> {
  const before = store.snapshot();
  const envelope = failureOf(await run('multi_edit_patch', { patch }, optionsFor(store)));
  assert.deepEqual(store.snapshot(), before, 'a refused patch changes no file');
  return envelope;
}

function v4a(...body: string[]): string {
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

describe('multi_edit_patch: Codex apply_patch (V4A)', () => {
  it('updates, adds, deletes and moves in one patch, all reported by operation', async () => {
    const store = new MemoryStore({ '/work/a.py': 'def f():\n    return 1\n', '/work/b.txt': 'bye\n', '/work/old/c.py': 'x = 1\ny = 2\n' });
    const response = await apply(store, v4a(
      '*** Update File: a.py',
      '@@ def f():',
      '-    return 1',
      '+    return 2',
      '*** Add File: new/d.txt',
      '+hello',
      '+world',
      '*** Delete File: b.txt',
      '*** Update File: old/c.py',
      '*** Move to: moved/c.py',
      '@@',
      ' x = 1',
      '-y = 2',
      '+y = 3',
    ));
    assert.equal(store.text('/work/a.py'), 'def f():\n    return 2\n');
    assert.equal(store.text('/work/new/d.txt'), 'hello\nworld\n');
    assert.equal(store.text('/work/b.txt'), undefined);
    assert.equal(store.text('/work/old/c.py'), undefined);
    assert.equal(store.text('/work/moved/c.py'), 'x = 1\ny = 3\n');
    assert.deepEqual(response.files.map((file) => [file.operation, file.file_path, file.moved_from]), [
      ['update', '/work/a.py', undefined],
      ['add', '/work/new/d.txt', undefined],
      ['delete', '/work/b.txt', undefined],
      ['move', '/work/moved/c.py', '/work/old/c.py'],
    ]);
    assert.match(response.summary, /2 hunks \(1 added, 1 deleted, 1 moved\)/);
  });

  it('an @@ line chooses among occurrences: the first after that line', async () => {
    const text = 'class A:\n    def run(self):\n        pass\nclass B:\n    def run(self):\n        pass\n';
    const store = new MemoryStore({ '/work/m.py': text });
    await apply(store, v4a('*** Update File: m.py', '@@ class B:', '     def run(self):', '-        pass', '+        return 2'));
    assert.equal(store.text('/work/m.py'), 'class A:\n    def run(self):\n        pass\nclass B:\n    def run(self):\n        return 2\n');
  });

  it('without an @@ line, several occurrences are AMBIGUOUS_MATCH with the patch line', async () => {
    const store = new MemoryStore({ '/work/m.py': 'a\npass\nb\npass\n' });
    const envelope = await refuse(store, v4a('*** Update File: m.py', '@@', '-pass', '+done'));
    assert.equal(envelope.error_code, 'AMBIGUOUS_MATCH');
    assert.equal(envelope.file_index, 0);
    assert.equal(envelope.edit_index, 0);
    assert.equal(envelope.context?.patch_line, 3);
    assert.equal(envelope.context?.total_matches, 2);
  });

  it('a missing @@ line is MATCH_NOT_FOUND naming it', async () => {
    const store = new MemoryStore({ '/work/m.py': 'a\npass\n' });
    const envelope = await refuse(store, v4a('*** Update File: m.py', '@@ class Missing:', '-pass', '+done'));
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.match(envelope.message, /"@@ class Missing:" line was not found/);
  });

  it('*** End of File pins the hunk to the end of the file', async () => {
    const store = new MemoryStore({ '/work/e.txt': 'end\nmiddle\nend\n' });
    await apply(store, v4a('*** Update File: e.txt', '@@', ' middle', '-end', '+last', '*** End of File'));
    assert.equal(store.text('/work/e.txt'), 'end\nmiddle\nlast\n');
    const ambiguous = new MemoryStore({ '/work/e.txt': 'end\nmiddle\nend\n' });
    assert.equal((await refuse(ambiguous, v4a('*** Update File: e.txt', '@@', '-end', '+last'))).error_code, 'AMBIGUOUS_MATCH');
  });

  it('keeps a missing final newline, and the file\'s CRLF line endings', async () => {
    const store = new MemoryStore({ '/work/n.txt': 'one\ntwo', '/work/w.txt': 'one\r\ntwo\r\n' });
    await apply(store, v4a('*** Update File: n.txt', '@@', ' one', '-two', '+TWO', '*** Update File: w.txt', '@@', '-one', '+ONE'));
    assert.equal(store.text('/work/n.txt'), 'one\nTWO');
    assert.equal(store.text('/work/w.txt'), 'ONE\r\ntwo\r\n');
  });

  it('a move without hunks moves the file unchanged', async () => {
    const store = new MemoryStore({ '/work/a.txt': 'same\n' });
    const response = await apply(store, v4a('*** Update File: a.txt', '*** Move to: b.txt'));
    assert.equal(store.text('/work/b.txt'), 'same\n');
    assert.equal(store.text('/work/a.txt'), undefined);
    assert.equal(response.files[0].moved_from, '/work/a.txt');
  });

  it('a dry run writes nothing and shows each file\'s diff', async () => {
    const store = new MemoryStore({ '/work/a.txt': 'a\n' });
    const response = await apply(store, v4a('*** Add File: b.txt', '+b', '*** Update File: a.txt', '@@', '-a', '+A'), true);
    assert.equal(store.text('/work/b.txt'), undefined);
    assert.equal(store.text('/work/a.txt'), 'a\n');
    assert.match(response.files[0].diff ?? '', /\+b/);
    assert.match(response.files[1].diff ?? '', /-a\n\+A/);
  });
});

describe('multi_edit_patch: unified diff', () => {
  it('applies git diff with a rename, a new file, a deleted file and no newline at end of file', async () => {
    const store = new MemoryStore({ '/work/src/a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;', '/work/gone.txt': 'x\ny\n', '/work/old.ts': 'keep\nchange\n' });
    const response = await apply(store, [
      'diff --git a/src/a.ts b/src/a.ts',
      'index 1111111..2222222 100644',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,3 +1,3 @@',
      ' const a = 1;',
      ' const b = 2;',
      '-const c = 3;',
      '\\ No newline at end of file',
      '+const c = 4;',
      '\\ No newline at end of file',
      'diff --git a/added.md b/added.md',
      'new file mode 100644',
      'index 0000000..3333333',
      '--- /dev/null',
      '+++ b/added.md',
      '@@ -0,0 +1,2 @@',
      '+# Title',
      '+text',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-x',
      '-y',
      'diff --git a/old.ts b/new.ts',
      'similarity index 60%',
      'rename from old.ts',
      'rename to new.ts',
      '--- a/old.ts',
      '+++ b/new.ts',
      '@@ -1,2 +1,2 @@',
      ' keep',
      '-change',
      '+changed',
      '',
    ].join('\n'));
    assert.equal(store.text('/work/src/a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 4;');
    assert.equal(store.text('/work/added.md'), '# Title\ntext\n');
    assert.equal(store.text('/work/gone.txt'), undefined);
    assert.equal(store.text('/work/new.ts'), 'keep\nchanged\n');
    assert.deepEqual(response.files.map((file) => file.operation), ['update', 'add', 'delete', 'move']);
  });

  it('line numbers choose among exact occurrences: the nearest to the stated line', async () => {
    const block = (n: number): string => `function f${n}() {\n  return 0;\n}\n`;
    const text = [1, 2, 3, 4, 5, 6].map(block).join('');
    const store = new MemoryStore({ '/work/f.js': text });
    // f5's "return 0;" is line 14; the header says 13, one line off, and f4's (line 11) is farther.
    await apply(store, ['--- a/f.js', '+++ b/f.js', '@@ -13 +13 @@', '-  return 0;', '+  return 5;', ''].join('\n'));
    assert.equal(store.text('/work/f.js'), text.replace(`function f5() {\n  return 0;`, `function f5() {\n  return 5;`));
  });

  it('reads diff -u output with dates after the names and different first folders', async () => {
    const store = new MemoryStore({ '/work/lib/x.c': 'int x;\nint y;\n' });
    await apply(store, [
      '--- old/lib/x.c\t2024-01-01 10:00:00.000000000 +0000',
      '+++ new/lib/x.c\t2024-01-02 10:00:00.000000000 +0000',
      '@@ -1,2 +1,2 @@',
      ' int x;',
      '-int y;',
      '+long y;',
      '',
    ].join('\n'));
    assert.equal(store.text('/work/lib/x.c'), 'int x;\nlong y;\n');
  });

  it('a deleted file must hold exactly the lines the diff removes', async () => {
    const store = new MemoryStore({ '/work/gone.txt': 'x\ny\nz\n' });
    const envelope = await refuse(store, ['--- a/gone.txt', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-x', '-y', ''].join('\n'));
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
  });
});

describe('multi_edit_patch: SEARCH/REPLACE blocks', () => {
  it('applies fenced blocks, several per file, and creates a file from an empty SEARCH', async () => {
    const store = new MemoryStore({ '/work/app.py': 'import os\n\ndef main():\n    print("hi")\n' });
    const response = await apply(store, [
      'Here is the change:',
      '',
      'app.py',
      '```python',
      '<<<<<<< SEARCH',
      'import os',
      '=======',
      'import os',
      'import sys',
      '>>>>>>> REPLACE',
      '```',
      '',
      'app.py',
      '```python',
      '<<<<<<< SEARCH',
      '    print("hi")',
      '=======',
      '    print("hi", file=sys.stderr)',
      '>>>>>>> REPLACE',
      '```',
      '',
      'notes/todo.md',
      '```',
      '<<<<<<< SEARCH',
      '=======',
      '- write tests',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n'));
    assert.equal(store.text('/work/app.py'), 'import os\nimport sys\n\ndef main():\n    print("hi", file=sys.stderr)\n');
    assert.equal(store.text('/work/notes/todo.md'), '- write tests\n');
    assert.deepEqual(response.files.map((file) => [file.operation, file.edits_applied]), [['update', 2], ['add', 0]]);
  });

  it('an empty SEARCH on an existing file is FILE_EXISTS', async () => {
    const store = new MemoryStore({ '/work/a.txt': 'a\n' });
    const envelope = await refuse(store, 'a.txt\n<<<<<<< SEARCH\n=======\nb\n>>>>>>> REPLACE\n');
    assert.equal(envelope.error_code, 'FILE_EXISTS');
    assert.equal(envelope.context?.patch_line, 2);
  });
});

describe('multi_edit_patch: failures', () => {
  it('a malformed patch is VALIDATION_FAILED with the patch line of every problem', async () => {
    const store = new MemoryStore();
    const missingEnd = await refuse(store, '*** Begin Patch\n*** Add File: a.txt\n+a\n');
    assert.equal(missingEnd.error_code, 'VALIDATION_FAILED');
    assert.equal(missingEnd.validation_issues?.[0].patch_line, 3);
    assert.match(missingEnd.validation_issues?.[0].message ?? '', /\*\*\* End Patch/);
    const shortHunk = await refuse(store, '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n');
    assert.equal(shortHunk.error_code, 'VALIDATION_FAILED');
    assert.match(shortHunk.message, /announces 3 old and 3 new lines/);
    const unclosed = await refuse(store, 'x.txt\n<<<<<<< SEARCH\nold\n');
    assert.equal(unclosed.validation_issues?.[0].patch_line, 2);
    const notAPatch = await refuse(store, 'just some words\n');
    assert.equal(notAPatch.validation_issues?.[0].patch_line, 1);
  });

  it('a hunk that does not match names its file operation, hunk and patch line, and nothing is written', async () => {
    const store = new MemoryStore({ '/work/a.txt': 'a\n', '/work/b.txt': 'one\ntwo\n' });
    const envelope = await refuse(store, v4a('*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: b.txt', '@@', '-one', '+1', '@@', '-three', '+3'));
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.equal(envelope.file_index, 1);
    assert.equal(envelope.edit_index, 1);
    assert.equal(envelope.context?.patch_line, 10);
    assert.match(envelope.message, /^Hunk 2 of 2 \(patch line 10\) failed/);
  });

  it('adding or moving onto an existing path is FILE_EXISTS; updating or deleting a missing file is FILE_NOT_FOUND; deleting a folder is IS_DIRECTORY', async () => {
    const store = new MemoryStore({ '/work/a.txt': 'a\n', '/work/b.txt': 'b\n' });
    store.addDirectory('/work/dir');
    assert.equal((await refuse(store, v4a('*** Add File: a.txt', '+x'))).error_code, 'FILE_EXISTS');
    assert.equal((await refuse(store, v4a('*** Update File: a.txt', '*** Move to: b.txt'))).error_code, 'FILE_EXISTS');
    assert.equal((await refuse(store, v4a('*** Update File: nope.txt', '@@', '-a', '+b'))).error_code, 'FILE_NOT_FOUND');
    assert.equal((await refuse(store, v4a('*** Delete File: nope.txt'))).error_code, 'FILE_NOT_FOUND');
    assert.equal((await refuse(store, v4a('*** Delete File: dir'))).error_code, 'IS_DIRECTORY');
  });

  it('a path that leaves the root by ".." or as an absolute path elsewhere is refused', async () => {
    const store = new MemoryStore({ '/etc/passwd': 'root\n' });
    assert.equal((await refuse(store, v4a('*** Delete File: ../etc/passwd'))).error_code, 'PATH_TRAVERSAL');
    assert.equal((await refuse(store, v4a('*** Delete File: /etc/passwd'))).error_code, 'OUTSIDE_WORKSPACE');
  });

  it('two operations on one file are refused', async () => {
    const store = new MemoryStore({ '/work/a.txt': 'a\n' });
    const envelope = await refuse(store, v4a('*** Delete File: a.txt', '*** Add File: a.txt', '+b'));
    assert.equal(envelope.error_code, 'VALIDATION_FAILED');
    assert.match(envelope.message, /patch line 3: .*line 2/);
  });
});
