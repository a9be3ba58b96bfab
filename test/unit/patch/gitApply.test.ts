/**
 * multi-edit patch against git apply, on unified diffs that `git diff` writes from
 * random but realistic edits of this repository's own files: lines replaced,
 * inserted and deleted, CRLF files, files without a final newline, renames, added
 * and deleted files, and hunk headers moved off by a few lines. Each patch is
 * applied by git apply to one copy of the tree and by the CLI's patch path to
 * another; the two trees must end byte for byte the same. MULTI_EDIT_GIT_PATCHES
 * sets the number of patches (default 200).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPatchUnder } from '../helpers/patchHost';
import { recordFigure } from '../helpers/figures';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const PATCHES = Number(process.env.MULTI_EDIT_GIT_PATCHES ?? '200');

/** A small seeded generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(next: Random, items: readonly T[]): T => items[Math.floor(next() * items.length)];
const chance = (next: Random, p: number): boolean => next() < p;

/** Real text files of this repository, of a size that makes several hunks likely. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', 'src', 'docs', 'test/unit'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n');
  return listed.filter((file) => /\.(ts|md)$/.test(file)).filter((file) => {
    const size = fs.statSync(path.join(REPO_ROOT, file)).size;
    return size > 800 && size < 40_000;
  });
}

type Tree = Map<string, Buffer>;

interface Case {
  readonly before: Tree;
  readonly after: Tree;
}

/** A tree of 1-4 real files, some CRLF, some without a final newline, and what the edits make of it. */
function makeCase(next: Random, files: readonly string[]): Case {
  const before: Tree = new Map();
  const count = 1 + Math.floor(next() * 4);
  for (let index = 0; index < count; index++) {
    const source = pick(next, files);
    let text = fs.readFileSync(path.join(REPO_ROOT, source), 'utf8');
    if (chance(next, 0.5)) {
      text = withRepeatedBlock(next, text);
    }
    if (chance(next, 0.25)) {
      text = text.replace(/\n/g, '\r\n');
    }
    if (chance(next, 0.2)) {
      text = text.replace(/\r?\n$/, '');
    }
    before.set(`dir${index % 2}/${path.basename(source)}`, Buffer.from(text));
  }
  const after: Tree = new Map();
  for (const [name, bytes] of before) {
    const roll = next();
    if (roll < 0.1 && before.size > 1) {
      continue; // deleted
    }
    const edited = editText(next, bytes.toString('utf8'));
    const renamed = roll > 0.85 ? name.replace(/(\.\w+)$/, `.moved$1`) : name;
    after.set(renamed, Buffer.from(edited));
  }
  if (chance(next, 0.3)) {
    const source = pick(next, files);
    const lines = fs.readFileSync(path.join(REPO_ROOT, source), 'utf8').split('\n').slice(0, 12);
    after.set(`dir0/added-${path.basename(source)}`, Buffer.from(`${lines.join('\n')}\n`));
  }
  return { before, after };
}

/**
 * The text with a run of its lines copied twice more further down, as generated code
 * and boilerplate repeat: a hunk inside one copy then has the same context as in the
 * others, and only its line numbers say which one it means.
 */
function withRepeatedBlock(next: Random, text: string): string {
  const lines = text.split('\n');
  const from = Math.floor(next() * Math.max(1, lines.length - 10));
  const block = lines.slice(from, from + 8);
  const at = Math.min(lines.length, from + 8 + Math.floor(next() * 20));
  lines.splice(at, 0, ...block, ...block);
  return lines.join('\n');
}

/** 1-4 edits far enough apart: lines replaced, inserted (often copies of nearby lines) and deleted. */
function editText(next: Random, text: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const endsWithBreak = text.endsWith('\n');
  const lines = text.split(/\r?\n/);
  if (endsWithBreak) {
    lines.pop();
  }
  const sites = 1 + Math.floor(next() * 4);
  const positions = new Set<number>();
  for (let site = 0; site < sites; site++) {
    positions.add(Math.floor(next() * lines.length));
  }
  for (const at of [...positions].sort((a, b) => b - a)) {
    const kind = next();
    if (kind < 0.4) {
      lines.splice(at, 1 + Math.floor(next() * 2), `${lines[at] ?? ''} // changed`.trimStart());
    } else if (kind < 0.75) {
      // A copy of a line from elsewhere: the same text now occurs twice, as real edits often leave it.
      lines.splice(at, 0, lines[Math.floor(next() * lines.length)] ?? '', 'const inserted = true;');
    } else if (lines.length > 3) {
      lines.splice(at, 1 + Math.floor(next() * 2));
    }
  }
  const body = lines.join(eol);
  return endsWithBreak || chance(next, 0.1) ? `${body}${eol}` : body;
}

function writeTree(root: string, tree: Tree): void {
  fs.mkdirSync(root, { recursive: true });
  for (const [name, bytes] of tree) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), bytes);
  }
}

function readTree(root: string, tree: Tree = new Map(), prefix = ''): Tree {
  for (const entry of fs.readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== '.git') {
        readTree(root, tree, name);
      }
    } else {
      tree.set(name, fs.readFileSync(path.join(root, name)));
    }
  }
  return tree;
}

function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The diff git writes from `before` to `after`, renames found. */
function gitDiff(work: string, testCase: Case): string {
  writeTree(work, testCase.before);
  git(work, ['init', '-q']);
  git(work, ['add', '-A']);
  git(work, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'before']);
  for (const name of testCase.before.keys()) {
    fs.rmSync(path.join(work, name));
  }
  writeTree(work, testCase.after);
  git(work, ['add', '-A']);
  return git(work, ['diff', '--cached', '-M', '--no-color']);
}

/** Moves some hunk headers by a few lines, as a patch written against a slightly older file would be. */
function shiftLineNumbers(next: Random, patch: string): { patch: string; shifted: number } {
  let shifted = 0;
  const moved = patch.replace(/^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/gm, (header, oldStart: string, oldCount = '', newStart: string, newCount = '') => {
    const offset = pick(next, [-3, -2, -1, 1, 2, 3]);
    if (Number(oldStart) <= 4 || Number(newStart) <= 4 || !chance(next, 0.35)) {
      return header;
    }
    shifted++;
    return `@@ -${Number(oldStart) + offset}${oldCount} +${Number(newStart) + offset}${newCount} @@`;
  });
  return { patch: moved, shifted };
}

/** Whether some hunk's old lines (context and removed) occur more than once in its file as it was: its line numbers had to choose. */
function hasRepeatedHunk(patch: string, before: Tree): boolean {
  const sections = patch.split(/^diff --git a\/(\S+) /m);
  for (let index = 1; index < sections.length; index += 2) {
    const text = before.get(sections[index])?.toString('utf8');
    if (text === undefined) {
      continue;
    }
    for (const hunk of sections[index + 1].split(/^@@[^\n]*\n/m).slice(1)) {
      const old = hunk.split('\n').filter((line) => line.startsWith(' ') || line.startsWith('-')).map((line) => line.slice(1)).join('\n');
      const first = old === '' ? -1 : text.indexOf(old);
      if (first !== -1 && text.indexOf(old, first + 1) !== -1) {
        return true;
      }
    }
  }
  return false;
}

describe('multi-edit patch against git apply (differential)', function () {
  this.timeout(0);

  it(`applies ${PATCHES} generated git diffs to the same bytes as git apply`, async () => {
    const files = sourceFiles();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-gitapply-'));
    let agreed = 0;
    let bothRefused = 0;
    let shiftedHunks = 0;
    const constructs = { crlf: 0, noFinalNewline: 0, renames: 0, added: 0, deleted: 0, repeatedContext: 0 };
    try {
      for (let seed = 1; agreed < PATCHES && seed < PATCHES * 3; seed++) {
        const next = random(seed);
        const testCase = makeCase(next, files);
        const work = path.join(scratch, `${seed}`, 'work');
        const { patch, shifted } = shiftLineNumbers(next, gitDiff(work, testCase));
        if (patch.trim() === '') {
          continue;
        }
        const byGit = path.join(scratch, `${seed}`, 'git');
        const byUs = path.join(scratch, `${seed}`, 'ours');
        writeTree(byGit, testCase.before);
        writeTree(byUs, testCase.before);
        const patchFile = path.join(scratch, `${seed}`, 'change.patch');
        fs.writeFileSync(patchFile, patch);
        const gitRun = spawnSync('git', ['apply', patchFile], { cwd: byGit, encoding: 'utf8' });
        const response = await runPatchUnder(byUs, { patch });
        if (gitRun.status !== 0) {
          assert.equal(response.success, false, `seed ${seed}: git apply refused the patch (${gitRun.stderr.trim()}), multi-edit applied it`);
          assert.deepEqual(readTree(byUs), testCase.before, `seed ${seed}: a refused patch left the tree as it was`);
          bothRefused++;
          continue;
        }
        assert.ok(response.success, `seed ${seed}: git apply applied the patch, multi-edit refused it: ${JSON.stringify(response)}\n${patch}`);
        assert.deepEqual(readTree(byUs), readTree(byGit), `seed ${seed}: the trees differ\n${patch}`);
        agreed++;
        shiftedHunks += shifted;
        constructs.crlf += patch.includes('\r\n') ? 1 : 0;
        constructs.noFinalNewline += patch.includes('\\ No newline at end of file') ? 1 : 0;
        constructs.renames += patch.includes('\nrename from ') ? 1 : 0;
        constructs.added += patch.includes('\nnew file mode ') ? 1 : 0;
        constructs.deleted += patch.includes('\ndeleted file mode ') ? 1 : 0;
        constructs.repeatedContext += hasRepeatedHunk(patch, testCase.before) ? 1 : 0;
        fs.rmSync(path.join(scratch, `${seed}`), { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    recordFigure('git apply differential: patches applied to identical bytes', `${agreed} (${bothRefused} refused by both; ${shiftedHunks} hunk headers shifted; with CRLF ${constructs.crlf}, no final newline ${constructs.noFinalNewline}, renames ${constructs.renames}, added files ${constructs.added}, deleted files ${constructs.deleted}, a hunk whose old lines occur more than once ${constructs.repeatedContext})`);
    assert.ok(agreed >= PATCHES, `only ${agreed} patches applied by both`);
    for (const [construct, count] of Object.entries(constructs)) {
      assert.ok(count > 0, `no generated patch had ${construct}`);
    }
    assert.ok(shiftedHunks > 0, 'no hunk header was shifted');
  });
});
