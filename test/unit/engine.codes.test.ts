/**
 * Every code in the codes table, produced through the public engine API, with its
 * category, retryable flag and next action taken from the table.
 */
import * as assert from 'node:assert/strict';
import { envelopeFor } from '../../src/core/contract/envelope';
import { ALL_ERROR_CODES, codeInfo, type ErrorCode } from '../../src/core/contract/errorCodes';
import { planRequest, commitPlan } from '../../src/core/engine/engine';
import { defaultPathCheck } from '../../src/core/store/paths';
import type { FileStore } from '../../src/core/store/fileStore';
import type { EngineOptions } from '../../src/core/engine/options';
import type { ErrorEnvelope } from '../../src/core/contract/schemas';
import { assertValidResponse, failureOf, recordingSleep, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/work/a.ts';
const TEXT = 'alpha\nbeta\ngamma\nbeta\n';

function oneEdit(old_string: string, new_string: string, file_path = FILE): object {
  return { file_path, edits: [{ old_string, new_string }] };
}

async function failWith(input: unknown, options: Partial<EngineOptions> = {}, tool = 'multi_edit'): Promise<ErrorEnvelope> {
  const store = options.store ?? new MemoryStore({ [FILE]: TEXT });
  return failureOf(await run(tool, input, { sleep: recordingSleep().sleep, ...options, store }));
}

function storeFailing(operation: 'stat' | 'read' | 'write', code: ErrorCode): MemoryStore {
  const store = new MemoryStore({ [FILE]: TEXT });
  store.failOn(operation, FILE, { code, detail: `the store says ${code}` });
  return store;
}

const scenarios: Record<ErrorCode, () => Promise<ErrorEnvelope>> = {
  VALIDATION_FAILED: () => failWith({ file_path: FILE, edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }, { old_string: 7, new_string: 'e' }] }),
  RELATIVE_PATH: () => failWith(oneEdit('alpha', 'A', 'src/a.ts')),
  PATH_TRAVERSAL: () => failWith(oneEdit('alpha', 'A', '/work/src/../a.ts')),
  EMPTY_EDITS: () => failWith({ file_path: FILE, edits: [] }),
  EMPTY_OLD_STRING: () => failWith(oneEdit('', 'A')),
  NO_OP_EDIT: () => failWith(oneEdit('alpha', 'alpha')),
  DUPLICATE_OLD_STRING: () => failWith({ file_path: FILE, edits: [{ old_string: 'alpha', new_string: 'A' }, { old_string: 'alpha', new_string: 'B' }] }),
  MATCH_NOT_FOUND: () => failWith(oneEdit('delta', 'D')),
  AMBIGUOUS_MATCH: () => failWith(oneEdit('beta', 'B')),
  UNREPRESENTABLE_CHARACTER: () => {
    // A store whose files are ASCII text: the engine asks it which characters it cannot hold.
    const store = new MemoryStore({ [FILE]: TEXT });
    const read = store.read.bind(store);
    const ascii = { name: 'us-ascii', firstUnrepresentable: (text: string) => text.search(/[^\x00-\x7f]/) };
    store.read = async (path: string) => {
      const result = await read(path);
      return result.ok ? { ok: true as const, value: { ...result.value, encoding: ascii } } : result;
    };
    return failWith(oneEdit('alpha', 'alpha \u20ac'), { store });
  },
  SYNTAX_REGRESSION: () => failWith(oneEdit('alpha', 'alpha!!'), {
    syntaxChecker: { errorsIn: async (_path, text) => [...text.matchAll(/!!/g)].map((found) => ({ start: found.index, end: found.index + 2 })) },
  }),
  FILE_NOT_FOUND: () => failWith(oneEdit('alpha', 'A', '/work/missing.ts')),
  FILE_EXISTS: () => failWith({ patch: '*** Begin Patch\n*** Add File: a.ts\n+new\n*** End Patch\n' }, { root: '/work' }, 'multi_edit_patch'),
  IS_DIRECTORY: () => {
    const store = new MemoryStore();
    store.addDirectory('/work');
    return failWith(oneEdit('alpha', 'A', '/work'), { store });
  },
  INVALID_ENCODING: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('read', 'INVALID_ENCODING') }),
  FILE_TOO_LARGE: () => failWith(oneEdit('alpha', 'A'), { limits: { maxFileBytes: 10 } }),
  PERMISSION_DENIED: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('read', 'PERMISSION_DENIED') }),
  READ_ONLY_FS: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('write', 'READ_ONLY_FS') }),
  DISK_FULL: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('write', 'DISK_FULL') }),
  SYMLINK_LOOP: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('stat', 'SYMLINK_LOOP') }),
  NOT_REGULAR_FILE: () => {
    const store = new MemoryStore({ [FILE]: TEXT });
    store.markSpecial(FILE);
    return failWith(oneEdit('alpha', 'A'), { store });
  },
  WRITE_FAILED: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('write', 'WRITE_FAILED') }),
  STALE_CONTENT: async () => {
    const store = new MemoryStore({ [FILE]: TEXT });
    const planned = await planRequest('multi_edit', oneEdit('alpha', 'A'), { store });
    assert.ok(planned.ok);
    store.put(FILE, `${TEXT}changed by someone else\n`);
    const response = await commitPlan(planned.plan, { store });
    assertValidResponse(response);
    return failureOf(response);
  },
  FILE_BUSY: () => failWith(oneEdit('alpha', 'A'), { store: storeFailing('read', 'FILE_BUSY') }),
  OUTSIDE_WORKSPACE: () => failWith(oneEdit('alpha', 'A'), {
    checkPath: () => ({ ok: false, code: 'OUTSIDE_WORKSPACE', detail: 'the file is outside every workspace folder' }),
  }),
  FORBIDDEN_PATH: () => failWith(oneEdit('alpha', 'A', '/work/.git/config'), {
    checkPath: (path) => ({ ok: false, code: 'FORBIDDEN_PATH', detail: `${path} matches the protected glob .git/**` }),
  }),
  SAVE_REDIRECTED: async () => {
    const envelope = await failWith(oneEdit('alpha', 'A'), { store: storeFailing('write', 'SAVE_REDIRECTED') });
    assert.match(envelope.message, /^a\.ts was edited, but the store says SAVE_REDIRECTED$|was edited, but the store says SAVE_REDIRECTED/);
    return envelope;
  },
  USER_DENIED: async () => envelopeFor('USER_DENIED', 'The user rejected the edit'),
  CANCELLED: () => failWith(oneEdit('alpha', 'A'), { cancellation: { isCancellationRequested: true } }),
  UNKNOWN_TOOL: () => failWith(oneEdit('alpha', 'A'), {}, 'multi_replace'),
  INTERNAL_ERROR: () => {
    const broken: FileStore = {
      stat: async () => ({ ok: true, value: { kind: 'file', size: 1 } }),
      read: async () => { throw new Error('boom at /opt/extension/out/core.js:12:7'); },
      commit: async () => ({ ok: true, value: undefined }),
    };
    return failWith(oneEdit('alpha', 'A'), { store: broken });
  },
};

describe('engine: every error code', () => {
  it('has a scenario for every code in the table', () => {
    assert.deepEqual(Object.keys(scenarios).sort(), [...ALL_ERROR_CODES].sort());
  });

  for (const code of ALL_ERROR_CODES) {
    it(`produces ${code} with the table's category, retryable flag and next action`, async () => {
      const envelope = await scenarios[code]();
      assertValidResponse(envelope);
      const info = codeInfo(code);
      assert.equal(envelope.error_code, code, JSON.stringify(envelope));
      assert.equal(envelope.category, info.category);
      assert.equal(envelope.retryable, info.retryable);
      assert.equal(envelope.next_action.action, info.nextAction);
      assert.equal(envelope.next_action.can_retry, info.retryable);
      for (const hint of info.hints) {
        assert.ok(envelope.recovery_hints.includes(hint), `missing hint "${hint}"`);
      }
      assert.ok(envelope.summary.length > 0 && !envelope.summary.includes('\n'));
    });
  }
});

describe('engine: error code details', () => {
  it('names the field path of a schema violation', async () => {
    const envelope = await scenarios.VALIDATION_FAILED();
    assert.match(envelope.message, /^edits\[2\]\.old_string: expected string, got number/);
  });

  it('names a missing field and an unknown one', async () => {
    const missing = await failWith({ file_path: FILE, edits: [{ old_string: 'a' }] });
    assert.match(missing.message, /^edits\[0\]\.new_string: expected string, got nothing/);
    const unknown = await failWith({ file_path: FILE, edits: [{ old_string: 'a', new_string: 'b', replaceAll: true }] });
    assert.match(unknown.message, /^edits\[0\]\.replaceAll: unknown field; did you mean replace_all\?/);
  });

  it('suggests the field a misspelt name meant, and only a close one', async () => {
    const typo = await failWith({ file_path: FILE, edits: [{ old_string: 'a', new_strng: 'b' }] });
    assert.deepEqual(typo.validation_issues?.map((issue) => [issue.field, issue.message]), [
      ['edits[0].new_string', 'expected string, got nothing (the field is missing)'],
      ['edits[0].new_strng', 'unknown field; did you mean new_string?'],
    ]);
    const stranger = await failWith({ file_path: FILE, edits: [{ old_string: 'a', new_string: 'b' }], colour: 'red' });
    assert.equal(stranger.message, 'colour: unknown field');
  });

  it('lists every schema problem in validation_issues, each with its field path and keys', async () => {
    const envelope = await failWith({ file_path: 3, edits: [{ old_string: 'a' }, { old_string: 'c', new_string: 'd', replaceAll: true }] });
    assert.match(envelope.message, /\(and 2 more problems\)$/);
    assert.deepEqual(envelope.validation_issues, [
      { field: 'file_path', path: ['file_path'], message: 'expected string, got number' },
      { field: 'edits[0].new_string', path: ['edits', 0, 'new_string'], message: 'expected string, got nothing (the field is missing)' },
      { field: 'edits[1].replaceAll', path: ['edits', 1, 'replaceAll'], message: 'unknown field; did you mean replace_all?' },
    ]);
  });

  it('says when a multi_edit request was meant for multi_edit_files', async () => {
    const envelope = await failWith({ files: [{ file_path: FILE, edits: [{ old_string: 'a', new_string: 'b' }] }] });
    assert.equal(envelope.error_code, 'VALIDATION_FAILED');
    assert.ok(envelope.recovery_hints.some((hint) => hint.includes('multi_edit_files')));
  });

  it('refuses the same file twice in one multi_edit_files request, naming files[i].file_path', async () => {
    const envelope = await failWith({
      files: [
        { file_path: FILE, edits: [{ old_string: 'alpha', new_string: 'A' }] },
        { file_path: '/work/b.ts', edits: [{ old_string: 'x', new_string: 'y' }] },
        { file_path: FILE, edits: [{ old_string: 'gamma', new_string: 'G' }] },
      ],
    }, { store: new MemoryStore({ [FILE]: TEXT, '/work/b.ts': 'x' }) }, 'multi_edit_files');
    assert.equal(envelope.error_code, 'VALIDATION_FAILED');
    assert.match(envelope.message, /^files\[2\]\.file_path: the same file as files\[0\]\.file_path/);
    assert.equal(envelope.file_index, 2);
  });

  it('gives EMPTY_EDITS for files: [] and for a file without edits', async () => {
    const noFiles = await failWith({ files: [] }, {}, 'multi_edit_files');
    assert.equal(noFiles.error_code, 'EMPTY_EDITS');
    const noEdits = await failWith({ files: [{ file_path: FILE, edits: [] }] }, {}, 'multi_edit_files');
    assert.equal(noEdits.error_code, 'EMPTY_EDITS');
    assert.equal(noEdits.file_index, 0);
  });

  it('treats ".." as PATH_TRAVERSAL in POSIX and Windows paths, and relative paths as RELATIVE_PATH', async () => {
    for (const path of ['/a/../b.ts', 'C:\\work\\..\\b.ts', '..\\b.ts', '../b.ts']) {
      assert.equal((await failWith(oneEdit('a', 'b', path))).error_code, 'PATH_TRAVERSAL', path);
    }
    for (const path of ['a.ts', './a.ts', 'C:a.ts', '']) {
      assert.equal((await failWith(oneEdit('a', 'b', path))).error_code, 'RELATIVE_PATH', path);
    }
  });

  it('refuses drive-letter and UNC paths by default as RELATIVE_PATH (on POSIX they name a file in the current directory)', async () => {
    for (const path of ['C:\\work\\a.ts', 'd:/work/a.ts', '\\\\server\\share\\a.ts']) {
      const store = new MemoryStore({ [path]: TEXT });
      const envelope = failureOf(await run('multi_edit', oneEdit('alpha', 'A', path), { store }));
      assert.equal(envelope.error_code, 'RELATIVE_PATH', path);
      assert.match(envelope.message, /Windows path/);
    }
  });

  it('accepts absolute Windows and UNC paths where the adapter says they are absolute', async () => {
    for (const path of ['C:\\work\\a.ts', 'd:/work/a.ts', '\\\\server\\share\\a.ts']) {
      const store = new MemoryStore({ [path]: TEXT });
      const response = await run('multi_edit', oneEdit('alpha', 'A', path), { store, checkPath: (requested) => defaultPathCheck(requested, true) });
      assert.equal(response.success, true, path);
    }
  });

  it('gives VALIDATION_FAILED naming the field for a NUL byte or an over-long path, and for a lone surrogate in an edit', async () => {
    const cases: Array<[object, RegExp]> = [
      [oneEdit('alpha', 'A', '/work/a\u0000.ts'), /^file_path contains a NUL byte/],
      [oneEdit('alpha', 'A', `/work/${'x'.repeat(5000)}`), /^file_path is 5006 bytes long; paths are limited to 4096/],
      [{ file_path: FILE, edits: [{ old_string: 'alpha', new_string: 'A' }, { old_string: 'beta\ud83d', new_string: 'B' }] }, /^edits\[1\]\.old_string contains a lone surrogate \(U\+D83D\) at index 4/],
      [{ files: [{ file_path: FILE, edits: [{ old_string: 'alpha', new_string: '\ude00x' }] }] }, /^files\[0\]\.edits\[0\]\.new_string contains a lone surrogate \(U\+DE00\) at index 0/],
    ];
    for (const [input, message] of cases) {
      const tool = 'files' in input ? 'multi_edit_files' : 'multi_edit';
      const envelope = await failWith(input, {}, tool);
      assert.equal(envelope.error_code, 'VALIDATION_FAILED');
      assert.match(envelope.message, message);
      assert.ok(JSON.stringify(envelope).length < 2000, 'the envelope does not echo the path');
    }
  });

  it('keeps an emoji (a surrogate pair) as one character: it is valid input', async () => {
    const store = new MemoryStore({ [FILE]: 'smile 😀\n' });
    const response = await run('multi_edit', oneEdit('😀', '🙂'), { store });
    assert.ok(response.success);
    assert.equal(store.text(FILE), 'smile 🙂\n');
  });

  it('reports each input error on its own edit and still checks the others', async () => {
    const envelope = await failWith({
      file_path: FILE,
      edits: [
        { old_string: '', new_string: 'x' },
        { old_string: 'gamma', new_string: 'gamma' },
        { old_string: 'alpha', new_string: 'A' },
        { old_string: 'alpha', new_string: 'B' },
        { old_string: 'delta', new_string: 'D' },
      ],
    });
    assert.equal(envelope.error_code, 'EMPTY_OLD_STRING');
    assert.equal(envelope.edit_index, 0);
    assert.deepEqual(envelope.edit_status.map((status) => [status.edit_index, status.status, status.error_code]), [
      [0, 'failed', 'EMPTY_OLD_STRING'],
      [1, 'failed', 'NO_OP_EDIT'],
      [3, 'failed', 'DUPLICATE_OLD_STRING'],
      [4, 'failed', 'MATCH_NOT_FOUND'],
    ]);
    assert.deepEqual(envelope.next_action.edits_to_fix, [0, 1, 3, 4]);
    assert.match(envelope.edit_status[2].message, /old_string of edit 3$/);
  });

  it('retries FILE_BUSY before reporting it', async () => {
    const { sleep, waits } = recordingSleep();
    const envelope = await failWith(oneEdit('alpha', 'A'), { store: storeFailing('read', 'FILE_BUSY'), sleep });
    assert.equal(envelope.error_code, 'FILE_BUSY');
    assert.equal(envelope.next_action.action, 'retry_later');
    assert.deepEqual(waits, [100, 200, 400, 800]);
  });

  it('gives scope codes from the path check with its hints, and reads nothing', async () => {
    const store = new MemoryStore({ [FILE]: TEXT });
    const envelope = await failWith(oneEdit('alpha', 'A'), {
      store,
      checkPath: () => ({ ok: false, code: 'OUTSIDE_WORKSPACE', detail: 'outside the workspace', hints: ['Open the folder first'] }),
    });
    assert.equal(envelope.next_action.action, 'ask_user');
    assert.equal(envelope.recovery_hints[0], 'Open the folder first');
    assert.deepEqual(store.calls, []);
  });

  it('builds surface-level envelopes with envelopeFor, extras included', () => {
    const envelope = envelopeFor('USER_DENIED', 'The user rejected the preview', {
      file_path: FILE, hints: ['Ask what to change'], summary: 'Stopped: the user rejected the preview',
    });
    assertValidResponse(envelope);
    assert.equal(envelope.file_path, FILE);
    assert.deepEqual(envelope.recovery_hints, ['Ask what to change', ...codeInfo('USER_DENIED').hints]);
    assert.equal(envelope.summary, 'Stopped: the user rejected the preview');
    assert.deepEqual(envelope.edit_status, []);
    assert.equal(envelope.next_action.action, 'ask_user');
  });

  it('keeps internal errors free of stack traces and internal paths', async () => {
    const envelope = await scenarios.INTERNAL_ERROR();
    const text = JSON.stringify(envelope);
    assert.ok(!text.includes('/opt/extension'), text);
    assert.ok(!text.includes('boom'), text);
    assert.match(envelope.message, /no file was changed/);
  });

  it('hands the caught throw to onInternalError, which the envelope does not carry', async () => {
    const told: { phase: string; error: unknown }[] = [];
    const throwing: FileStore = {
      stat: async () => ({ ok: true, value: { kind: 'file', size: 1 } }),
      read: async () => { throw new Error('boom while reading'); },
      commit: async () => ({ ok: true, value: undefined }),
    };
    const envelope = await failWith(oneEdit('alpha', 'A'), { store: throwing, onInternalError: (phase, error) => told.push({ phase, error }) });
    assert.equal(envelope.error_code, 'INTERNAL_ERROR');
    assert.equal(told.length, 1);
    assert.equal(told[0].phase, 'while planning the edits');
    assert.equal((told[0].error as Error).message, 'boom while reading');
  });

  it('passes store details through without raw error text', async () => {
    const store = new MemoryStore({ [FILE]: TEXT });
    store.failOn('read', FILE, { code: 'PERMISSION_DENIED', detail: 'permission denied\n    at open (/opt/extension/node_modules/x.js:1:2)' });
    const envelope = await failWith(oneEdit('alpha', 'A'), { store });
    assert.equal(envelope.message, `Cannot edit ${FILE}: permission denied`);
  });
});
