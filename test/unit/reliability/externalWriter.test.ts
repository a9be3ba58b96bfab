/**
 * A writer that ignores Multi-Edit's locks (an editor, a formatter) saves a large
 * file by renaming a new copy over it, again and again, while a CLI run commits an
 * edit to the same file. The CLI may succeed (after planning again on the writer's
 * text) or give STALE_CONTENT, but the writer's last save is never lost. The window
 * that remains, between the last look at the file and the rename, is measured.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFs } from '../../../src/node/store/fsApi';
import { NodeFileStore, type NodeFsApi } from '../../../src/node/store/nodeFileStore';
import { CLI } from '../helpers/cliRun';
import { recordFigure, recordLostBytes } from '../helpers/figures';
import { useTempDir } from '../helpers/tempDir';
import { wholeText } from '../../../src/core/text/editedText';

const ROUNDS = Number(process.env.MULTI_EDIT_WRITER_ROUNDS ?? '40');
const LINES = 120_000;
const BODY = Array.from({ length: LINES }, (_, index) => `line ${index} alpha\n`).join('');
const TARGET_LINE = `line ${LINES / 2} alpha`;

function contentOf(save: number): string {
  return `save ${save}\n${BODY}`;
}

function saveOf(text: string): number {
  return Number(/^save (\d+)\n/.exec(text)?.[1] ?? -1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs the CLI on one edit of `target`; resolves with its parsed response's success and code. */
function runCliEdit(target: string, cwd: string): Promise<{ success: boolean; code?: string }> {
  const request = JSON.stringify({ file_path: target, edits: [{ old_string: TARGET_LINE, new_string: `line ${LINES / 2} BETA` }] });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'apply', '-'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.on('error', reject);
    child.on('close', () => {
      try {
        const response = JSON.parse(stdout) as { success: boolean; error_code?: string };
        resolve({ success: response.success, ...(response.error_code ? { code: response.error_code } : {}) });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(request);
  });
}

describe('reliability: a writer that saves by rename while a large edit commits', function () {
  this.timeout(600_000);
  const dir = useTempDir('writer');

  it(`loses none of the writer's saves in ${ROUNDS} rounds`, async () => {
    const target = path.join(dir(), 'big.txt');
    const scratch = path.join(dir(), 'big.txt.editor-save');
    const outcomes = new Map<string, number>();
    let lost = 0;
    let saves = 0;
    for (let round = 0; round < ROUNDS; round++) {
      fs.writeFileSync(target, contentOf(0));
      let cliDone = false;
      let lastSave = 0;
      const cli = runCliEdit(target, dir()).finally(() => { cliDone = true; });
      // The writer keeps saving for a while (sometimes past the CLI's end), then stops.
      const savingForMs = 50 + ((round * 37) % 400);
      const started = Date.now();
      while (!cliDone && Date.now() - started < savingForMs) {
        fs.writeFileSync(scratch, contentOf(lastSave + 1));
        fs.renameSync(scratch, target);
        lastSave++;
        await sleep(round % 3);
      }
      const outcome = await cli;
      saves += lastSave;
      const key = outcome.success ? 'succeeded' : outcome.code ?? 'failed';
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      const finalText = fs.readFileSync(target, 'utf8');
      const kept = saveOf(finalText) === lastSave;
      if (!kept) {
        lost++;
        recordLostBytes('external writer', Buffer.byteLength(contentOf(lastSave)));
      }
      if (outcome.success && kept && !finalText.includes(`line ${LINES / 2} BETA`)) {
        // The writer saved its own buffer after the CLI's commit: the writer replaced the edit, not the CLI the save.
        outcomes.set('edit replaced by a later save', (outcomes.get('edit replaced by a later save') ?? 0) + 1);
      }
      assert.deepEqual(fs.readdirSync(dir()).sort(), ['big.txt'], `round ${round} left files behind`);
    }
    recordFigure('external writer', `${ROUNDS} rounds of a CLI edit of a ${(Buffer.byteLength(contentOf(0)) / 1e6).toFixed(1)} MB file while a writer saved it by rename ${saves} times in all: ${[...outcomes].map(([key, count]) => `${count} ${key}`).join(', ')}; ${lost} saves lost`);
    assert.equal(lost, 0, 'a save of the writer was replaced by a commit planned on older text');
  });

  it('is not fooled by two saves that bring the compared inode number back with the same size and mtime', async () => {
    // Many file systems (ext4, XFS) give a new file the number just freed, and a file's
    // mtime moves in clock ticks of a few milliseconds: two quick saves by rename can leave
    // the name on the same number, size and mtime as the file compared, with other bytes.
    const target = path.join(dir(), 'twice.txt');
    const scratch = path.join(dir(), 'twice.txt.editor-save');
    const tick = new Date(1_700_000_000_000);
    fs.writeFileSync(target, 'save 0\n');
    fs.utimesSync(target, tick, tick);
    const saveByRename = (text: string): void => {
      fs.writeFileSync(scratch, text);
      fs.utimesSync(scratch, tick, tick);
      fs.renameSync(scratch, target);
    };
    const replaceIfUnchanged = nodeFs.replaceIfUnchanged;
    assert.ok(replaceIfUnchanged, 'the store looks and renames in one step');
    let comparedIno: bigint | undefined;
    const savingTwiceFirst: NodeFsApi = {
      ...nodeFs,
      replaceIfUnchanged: (file, expected, replacement) => {
        comparedIno = expected.ino;
        saveByRename('save 1\n');
        saveByRename('save 2\n');
        return replaceIfUnchanged(file, expected, replacement);
      },
    };
    const store = new NodeFileStore(savingTwiceFirst);
    const read = await store.read(target);
    assert.ok(read.ok);
    const result = await store.commit([{ kind: 'update', path: target, text: wholeText('edited\n'), bom: false, original: read.value }]);
    assert.equal(fs.readFileSync(target, 'utf8'), 'save 2\n', 'the second save is kept');
    assert.ok(!result.ok && result.code === 'STALE_CONTENT', JSON.stringify(result));
    assert.notEqual(fs.statSync(target, { bigint: true }).ino, comparedIno, 'the compared inode was still open, so its number was not given again');
    assert.deepEqual(fs.readdirSync(dir()).sort(), ['twice.txt']);
  });

  it('measures the window left between the last look at a file and its rename', async () => {
    const target = path.join(dir(), 'small.txt');
    fs.writeFileSync(target, 'one\n');
    const windows: bigint[] = [];
    const replaceIfUnchanged = nodeFs.replaceIfUnchanged;
    assert.ok(replaceIfUnchanged, 'the store looks and renames in one step');
    // The window is at most what the look and the rename take together.
    const timing: NodeFsApi = {
      ...nodeFs,
      replaceIfUnchanged: (file, expected, replacement) => {
        const started = process.hrtime.bigint();
        const replaced = replaceIfUnchanged(file, expected, replacement);
        windows.push(process.hrtime.bigint() - started);
        return replaced;
      },
    };
    const store = new NodeFileStore(timing);
    for (let round = 0; round < 200; round++) {
      const read = await store.read(target);
      assert.ok(read.ok);
      const result = await store.commit([{ kind: 'update', path: target, text: wholeText(`${round}\n`), bom: false, original: read.value }]);
      assert.ok(result.ok, JSON.stringify(result));
    }
    const sorted = windows.map((ns) => Number(ns) / 1000).sort((a, b) => a - b);
    const at = (q: number): string => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0);
    recordFigure('external writer', `the window between the last look at a file (stat) and the end of its rename (both calls), over ${sorted.length} commits: p50 ${at(0.5)} µs, p99 ${at(0.99)} µs, max ${sorted[sorted.length - 1].toFixed(0)} µs`);
    assert.equal(windows.length, 200);
  });
});
