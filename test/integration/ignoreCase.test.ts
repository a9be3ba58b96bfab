// A folder on a file system that ignores case, in a real extension host: an NTFS image mounted
// with `lowntfs-3g -o ignore_case` inside the workspace (what Windows, macOS and WSL's /mnt/c do
// with case). A request naming `foo.ts` edits the open `Foo.ts`, unsaved text included, and
// every other spelling of `.git` is refused (the editor's default protects .git, .hg and .svn). Needs root, /dev/fuse and ntfs-3g (npm test's
// platform setup installs it); skipped, saying which is missing, otherwise.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import { closeAllEditors, expectError, expectSuccess, invokeTool, openInEditor, scratchDir, toolSuiteFixture } from './helpers';

function missingPrerequisite(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0 || !fs.existsSync('/dev/fuse')) {
    return 'mounting a FUSE file system here needs Linux, root and /dev/fuse';
  }
  const missing = ['mkntfs', 'lowntfs-3g'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  return missing.length > 0 ? `missing ${missing.join(', ')} (apt-get install ntfs-3g)` : undefined;
}

function run(command: string, args: readonly string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}: ${result.stderr}${result.stdout}`);
}

suite('a folder on a file system that ignores case (NTFS, ignore_case)', function () {
  this.timeout(120_000);
  toolSuiteFixture('ignore-case');
  let work: string | undefined;
  let mountPoint: string;

  suiteSetup(function () {
    const missing = missingPrerequisite();
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-ignore-case-'));
    const image = path.join(work, 'ntfs.img');
    mountPoint = scratchDir('ntfs');
    run('truncate', ['-s', '24M', image]);
    run('mkntfs', ['-F', '-Q', '-q', image]);
    run('lowntfs-3g', ['-o', 'ignore_case', image, mountPoint]);
  });

  suiteTeardown(async () => {
    await closeAllEditors();
    if (work !== undefined) {
      spawnSync('fusermount', ['-u', mountPoint], { timeout: 30_000 });
      if (spawnSync('mountpoint', ['-q', mountPoint]).status === 0) {
        spawnSync('umount', ['-l', mountPoint]);
      }
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  test('a request naming foo.ts edits the open Foo.ts, as the editor holds it', async () => {
    const file = path.join(mountPoint, 'Foo.ts');
    fs.writeFileSync(file, 'export const a = 1;\nexport const b = 2;\n');
    const editor = await openInEditor(file);
    // Unsaved text: only the open document has it, so a match proves the request used it.
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), '// unsaved\n'));
    const reply = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: path.join(mountPoint, 'foo.ts'),
      edits: [{ old_string: '// unsaved\nexport const a = 1;', new_string: '// unsaved\nexport const a = 10;' }],
    }));
    assert.equal(reply.files.length, 1);
    assert.equal(editor.document.getText(), '// unsaved\nexport const a = 10;\nexport const b = 2;\n');
    // One file, whichever case the driver lists it in (lowntfs-3g lists names in lower case).
    assert.equal(fs.readdirSync(mountPoint).filter((name) => name.toLowerCase() === 'foo.ts').length, 1);
  });

  test('every other spelling of .git is refused there, and nothing changes', async () => {
    fs.mkdirSync(path.join(mountPoint, '.git'), { recursive: true });
    fs.writeFileSync(path.join(mountPoint, '.git', 'config'), '[core]\n');
    for (const name of ['.GIT/config', '.Git/config', '.git./config', 'GIT~1/config']) {
      expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: path.join(mountPoint, name), edits: [{ old_string: '[core]', new_string: 'changed' }] }), 'FORBIDDEN_PATH');
    }
    assert.equal(fs.readFileSync(path.join(mountPoint, '.git', 'config'), 'utf8'), '[core]\n');
  });
});
