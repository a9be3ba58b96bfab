// multi-edit undo and multi-edit history as a user runs them: a request applied by apply or
// patch is listed and taken back byte for byte, a stale undo is refused naming the file,
// --no-history and MULTI_EDIT_NO_HISTORY keep nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseCliResponse, runCli } from './helpers/cliRun';

/** Every test's folder (its project and its history), removed once the test is over. */
const sandboxes: string[] = [];

function project(): { root: string; state: string; env: NodeJS.ProcessEnv } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-cli-history-')));
  sandboxes.push(base);
  const root = path.join(base, 'project');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  const state = path.join(base, 'state');
  return { root, state, env: { MULTI_EDIT_HISTORY_DIR: state } };
}

function cli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, input?: string) {
  return runCli(args, { cwd, env, ...(input !== undefined ? { input } : {}) });
}

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@',
  '-export const retries = 3;',
  '+export const retries = 5;',
  '*** Add File: src/new.ts',
  '+export const fresh = 1;',
  '*** Delete File: src/old.ts',
  '*** Update File: src/name.ts',
  '*** Move to: src/renamed.ts',
  '@@',
  '-export const name = 1;',
  '+export const name = 2;',
  '*** End Patch',
].join('\n');

function seed(root: string): Record<string, string> {
  fs.writeFileSync(path.join(root, 'src/app.ts'), '\uFEFFexport const retries = 3;\r\nexport const delay = 1;\r\n');
  fs.writeFileSync(path.join(root, 'src/old.ts'), 'export const old = 1;\n');
  fs.writeFileSync(path.join(root, 'src/name.ts'), 'export const name = 1;\n');
  return snapshot(root);
}

function snapshot(root: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(path.join(root, 'src')).sort().map((name) => [name, fs.readFileSync(path.join(root, 'src', name)).toString('hex')]));
}

describe('CLI: history and undo', () => {
  afterEach(() => {
    for (const folder of sandboxes.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('patch, then history lists it, then undo restores the four operations byte for byte', () => {
    const { root, env } = project();
    const before = seed(root);
    const applied = parseCliResponse(cli(['patch', '-'], root, env, PATCH));
    assert.ok(applied.success, JSON.stringify(applied));
    const id = applied.request_id;
    assert.ok(id);

    const listed = cli(['history'], root, env);
    assert.equal(listed.status, 0, listed.stderr);
    const { requests } = JSON.parse(listed.stdout) as { requests: { request_id: string; surface: string; files: unknown[] }[] };
    assert.deepEqual(requests.map((request) => [request.request_id, request.surface, request.files.length]), [[id, 'cli', 4]]);
    const text = cli(['history', '--format', 'text'], root, env);
    assert.match(text.stdout, new RegExp(`^${id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ  cli  src/app\\.ts updated, src/new\\.ts added, src/old\\.ts deleted, src/name\\.ts → src/renamed\\.ts moved\\n$`));

    const preview = cli(['undo', '--dry-run', '--format', 'text'], root, env);
    assert.equal(preview.status, 0, preview.stdout);
    assert.match(preview.stdout, new RegExp(`^ok dry run: undo of request ${id} `));
    assert.match(preview.stdout, /^-export const retries = 5;/m);
    assert.notDeepEqual(snapshot(root), before);

    const undone = parseCliResponse(cli(['undo', id], root, env));
    assert.ok(undone.success, JSON.stringify(undone));
    assert.equal(undone.undone_request_id, id);
    assert.deepEqual(snapshot(root), before);
    const again = cli(['undo', id, '--format', 'text'], root, env);
    assert.equal(again.status, 1);
    assert.match(again.stdout, /^error code=VALIDATION_FAILED .*was already undone/);
  });

  it('apply keeps its request under the working directory; a stale undo names the file and changes nothing', () => {
    const { root, env } = project();
    const file = path.join(root, 'src/app.ts');
    fs.writeFileSync(file, 'const a = 1;\n');
    const request = JSON.stringify({ file_path: file, edits: [{ old_string: 'a = 1', new_string: 'a = 2' }] });
    const applied = parseCliResponse(cli(['apply', '-'], root, env, request));
    assert.ok(applied.success && applied.request_id);
    fs.writeFileSync(file, 'const a = 3;\n');
    const refused = cli(['undo', '--format', 'text'], root, env);
    assert.equal(refused.status, 1);
    assert.match(refused.stdout, /^error code=STALE_CONTENT file=src\/app\.ts .*src\/app\.ts was changed outside Multi-Edit/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'const a = 3;\n');
  });

  it('a file apply edited outside the working directory is undone from there; one that now leads into a protected folder is refused', () => {
    const { root, env } = project();
    const elsewhere = path.join(path.dirname(root), 'elsewhere');
    fs.mkdirSync(elsewhere);
    const file = path.join(elsewhere, 'notes.ts');
    const before = '\uFEFFexport const note = "café";\r\n';
    fs.writeFileSync(file, before);
    const request = JSON.stringify({ file_path: file, edits: [{ old_string: 'café', new_string: 'thé' }] });
    const applied = parseCliResponse(cli(['apply', '-'], root, env, request));
    assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
    const listed = cli(['history', '--format', 'text'], root, env);
    assert.match(listed.stdout, new RegExp(`^${applied.request_id} .* cli  ${file.replace(/[.\\]/g, '\\$&')} updated\\n$`));
    const undone = parseCliResponse(cli(['undo'], root, env));
    assert.ok(undone.success, JSON.stringify(undone));
    assert.equal(fs.readFileSync(file, 'utf8'), before);

    // Applied again, then its folder swapped for a link into a version-control folder holding the same text: the path now leads where no request may write.
    const again = parseCliResponse(cli(['apply', '-'], root, env, request));
    assert.ok(again.success, JSON.stringify(again));
    const gitFolder = path.join(path.dirname(root), 'repo', '.git');
    fs.mkdirSync(gitFolder, { recursive: true });
    fs.renameSync(file, path.join(gitFolder, 'notes.ts'));
    fs.rmdirSync(elsewhere);
    fs.symlinkSync(gitFolder, elsewhere);
    const refused = cli(['undo', '--format', 'text'], root, env);
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stdout, /^error code=FORBIDDEN_PATH /);
    assert.equal(fs.readFileSync(path.join(gitFolder, 'notes.ts'), 'utf8'), before.replace('café', 'thé'));
  });

  it('--no-history and MULTI_EDIT_NO_HISTORY=1 keep nothing; the id is still given', () => {
    const { root, state, env } = project();
    fs.writeFileSync(path.join(root, 'src/app.ts'), 'const a = 1;\n');
    const patch = (from: string, to: string) => `*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const a = ${from};\n+const a = ${to};\n*** End Patch`;
    const flagged = parseCliResponse(cli(['patch', '--no-history', '-'], root, env, patch('1', '2')));
    assert.ok(flagged.success && flagged.request_id);
    const byEnv = parseCliResponse(cli(['patch', '-'], root, { ...env, MULTI_EDIT_NO_HISTORY: '1' }, patch('2', '3')));
    assert.ok(byEnv.success && byEnv.request_id);
    assert.equal(fs.existsSync(state), false);
  });

  it('a Latin-1 file deleted, and one moved, by a patch read with --encoding latin1 come back byte for byte, not as UTF-8', () => {
    const { root, env } = project();
    fs.writeFileSync(path.join(root, 'src/gone.txt'), Buffer.from('caf\xe9 cr\xe8me\r\n', 'latin1'));
    fs.writeFileSync(path.join(root, 'src/name.txt'), Buffer.from('pr\xe9nom = 1\n', 'latin1'));
    const before = snapshot(root);
    const patch = ['*** Begin Patch', '*** Delete File: src/gone.txt', '*** Update File: src/name.txt', '*** Move to: src/renamed.txt', '@@', '-prénom = 1', '+prénom = 2', '*** End Patch'].join('\n');
    const applied = parseCliResponse(cli(['patch', '--encoding', 'latin1', '-'], root, env, patch));
    assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
    assert.deepEqual(fs.readFileSync(path.join(root, 'src/renamed.txt')), Buffer.from('pr\xe9nom = 2\n', 'latin1'));
    const undone = parseCliResponse(cli(['undo', applied.request_id], root, env));
    assert.ok(undone.success, JSON.stringify(undone));
    assert.deepEqual(snapshot(root), before);
  });

  it('undoes a request applied past the default 32 MB limit: by the size its record keeps, and with --max-file-size for a record without it; FILE_TOO_LARGE, not STALE_CONTENT, between', function () {
    this.timeout(120_000);
    const { root, state, env } = project();
    const file = path.join(root, 'src/huge.txt');
    // 33 MiB: over the default limit of 32 MiB.
    const line = 'export const padding = "0123456789abcdef0123456789abcdef0123456789abcdef";\n';
    fs.writeFileSync(file, `export const marker = "before";\n${line.repeat(Math.ceil((33 * 1024 * 1024) / line.length))}`);
    const before = fs.readFileSync(file);
    const request = JSON.stringify({ file_path: file, edits: [{ old_string: 'marker = "before"', new_string: 'marker = "after"' }] });
    const refusedApply = parseCliResponse(cli(['apply', '-'], root, env, request));
    assert.ok(!refusedApply.success && refusedApply.error_code === 'FILE_TOO_LARGE');
    assert.ok(refusedApply.recovery_hints.some((hint) => hint.includes('--max-file-size')), refusedApply.recovery_hints.join(' | '));

    const first = parseCliResponse(cli(['apply', '--max-file-size', '64', '-'], root, env, request));
    assert.ok(first.success && first.request_id, JSON.stringify(first));
    const undoneByRecord = parseCliResponse(cli(['undo'], root, env));
    assert.ok(undoneByRecord.success, JSON.stringify(undoneByRecord));
    assert.equal(undoneByRecord.undone_request_id, first.request_id);
    assert.ok(fs.readFileSync(file).equals(before), 'the first undo restores the bytes');

    // A record written without the size (by a version before it was kept) leaves only the limit.
    const second = parseCliResponse(cli(['apply', '--max-file-size=64', '-'], root, env, request));
    assert.ok(second.success && second.request_id, JSON.stringify(second));
    const after = fs.readFileSync(file);
    const [folder] = fs.readdirSync(state);
    const recordFile = path.join(state, folder, `${second.request_id}.json`);
    const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as { files: { after: { bytes?: number } }[] };
    assert.equal(record.files[0].after.bytes, after.length);
    delete record.files[0].after.bytes;
    fs.writeFileSync(recordFile, JSON.stringify(record));

    const refused = cli(['undo', '--format', 'text'], root, env);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stdout, new RegExp(`^error code=FILE_TOO_LARGE file=src/huge\\.txt msg="Cannot undo request ${second.request_id}: src/huge\\.txt has more than 33554432 bytes, the size limit`));
    assert.match(refused.stdout, /^ {2}- .*--max-file-size MB/m);
    assert.doesNotMatch(refused.stdout, /STALE_CONTENT|outside Multi-Edit/);
    assert.ok(fs.readFileSync(file).equals(after), 'nothing was written');

    const undone = parseCliResponse(cli(['undo', '--max-file-size', '33.5', second.request_id], root, env));
    assert.ok(undone.success, JSON.stringify(undone));
    assert.equal(undone.undone_request_id, second.request_id);
    assert.ok(fs.readFileSync(file).equals(before), 'the second undo restores the bytes');
  });

  it('undo takes --max-file-size as apply does: a value that is not a positive number of megabytes is a usage error', () => {
    const { root, env } = project();
    for (const args of [['--max-file-size', '0'], ['--max-file-size', '-1'], ['--max-file-size', 'abc'], ['--max-file-size', ' '], ['--max-file-size=Infinity'], ['--max-file-size=']]) {
      for (const command of ['apply', 'undo']) {
        const run = cli([command, ...args, ...(command === 'apply' ? ['request.json'] : [])], root, env);
        assert.equal(run.status, 2, `${command} ${args.join(' ')}: ${run.stdout}`);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, new RegExp(`^multi-edit: --max-file-size needs a positive number of megabytes\nusage: multi-edit ${command} `));
      }
    }
    const missing = cli(['undo', '--max-file-size'], root, env);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--max-file-size needs a positive number of megabytes/);
  });

  it('undo with nothing kept is VALIDATION_FAILED; --root that is not a directory is a usage error', () => {
    const { root, env } = project();
    const none = parseCliResponse(cli(['undo'], root, env));
    assert.ok(!none.success);
    assert.equal(none.error_code, 'VALIDATION_FAILED');
    const bad = cli(['history', '--root', path.join(root, 'missing')], root, env);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /is not a directory/);
  });
});
