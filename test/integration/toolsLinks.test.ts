// Symbolic links in the workspace that lead out of it, in the real extension host: the
// tools ask before following one, and without that confirmation each attack gets its code
// and nothing outside the workspace changes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES } from '../../src/core/contract/toolNames';
import { MultiEditFilesTool } from '../../src/vscode/tools/multiEditFilesTool';
import { MultiEditTool } from '../../src/vscode/tools/multiEditTool';
import { closeAllEditors, expectError, invokeTool, readDisk, scratchDir, toolSuiteFixture, withSettings, writeScratchFile } from './helpers';
import { startDirectorySwapper } from '../shared/directorySwapper';

const change = (filePath: string): object => ({ file_path: filePath, edits: [{ old_string: 'secret', new_string: 'pwned' }] });

// Windows needs a privilege to create symbolic links.
(process.platform === 'win32' ? suite.skip : suite)('language-model tools: symbolic links that lead out of the workspace', () => {
  const fixture = toolSuiteFixture('links');
  let outside: string;
  let secret: string;

  setup(() => {
    outside = scratchDir('linked-outside', 'outside');
    secret = writeScratchFile(outside, 's.txt', 'secret\n');
    writeScratchFile(outside, path.join('nested', 's.txt'), 'secret\n');
  });
  teardown(async () => {
    assert.equal(readDisk(secret), 'secret\n', 'the file outside is as it was');
    assert.equal(readDisk(path.join(outside, 'nested', 's.txt')), 'secret\n');
    assert.deepEqual(fs.readdirSync(outside).sort(), ['nested', 's.txt'], 'no name appeared outside');
    fs.rmSync(outside, { recursive: true, force: true });
    await closeAllEditors();
  });

  function link(target: string, name: string): string {
    const at = path.join(fixture.dir, name);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(target, at);
    return at;
  }

  test('prepareInvocation asks before following a link out of the workspace, and not for a link that stays inside', async () => {
    const leading = link(secret, 'leads-out.txt');
    const staying = link(writeScratchFile(fixture.dir, 'real.txt', 'secret\n'), 'stays-in.txt');
    const single = await new MultiEditTool(fixture.api).prepareInvocation({ input: change(leading) });
    assert.ok(single.confirmationMessages, 'a link that leads out is outside the workspace');
    assert.match(single.confirmationMessages.title, /outside the workspace/);
    const inside = await new MultiEditTool(fixture.api).prepareInvocation({ input: change(staying) });
    assert.equal(inside.confirmationMessages, undefined, 'a link that stays inside needs no confirmation');
    const several = await new MultiEditFilesTool(fixture.api).prepareInvocation({ input: { files: [change(staying), change(path.join(link(outside, 'dir'), 's.txt'))] } });
    assert.match(several.confirmationMessages?.title ?? '', /Edit 1 file outside the workspace/);
  });

  test('without confirmation, each link that leads out is OUTSIDE_WORKSPACE naming the link: to a file, a directory, the parent, a chain, a relative link', async () => {
    await withSettings({ confirmation: 'never' }, async () => {
      const toFile = link(secret, 'file-link');
      const toDirectory = link(outside, 'dir-link');
      const toParent = link(path.dirname(outside), 'parent-link');
      const chainEnd = link(secret, path.join('chain', 'end'));
      const chainStart = link(chainEnd, 'chain-start');
      const relative = link(path.relative(fixture.dir, secret), 'relative-link');
      const attacks: [string, string][] = [
        [toFile, toFile],
        [path.join(toDirectory, 'nested', 's.txt'), toDirectory],
        [path.join(toParent, path.basename(outside), 's.txt'), toParent],
        [chainStart, chainStart],
        [relative, relative],
      ];
      for (const [target, named] of attacks) {
        const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, change(target)), 'OUTSIDE_WORKSPACE');
        assert.ok(envelope.message.includes(`symbolic link ${named} `), envelope.message);
      }
    });
  });

  test('a protected file through a link is FORBIDDEN_PATH, confirmed or not, and stays unchanged: .git/config, and .env once the user protects it', async () => {
    const config = writeScratchFile(fixture.dir, path.join('.git', 'config'), 'secret\n');
    const env = writeScratchFile(fixture.dir, '.env', 'secret\n');
    for (const target of [link(config, 'config-link'), path.join(link(path.dirname(config), 'git-link'), 'config')]) {
      expectError(await invokeTool(TOOL_MULTI_EDIT, change(target)), 'FORBIDDEN_PATH');
    }
    await withSettings({ protectedGlobs: ['**/.git/**', '**/.env*'] }, async () => {
      expectError(await invokeTool(TOOL_MULTI_EDIT, change(link(env, 'env-link'))), 'FORBIDDEN_PATH');
    });
    assert.equal(readDisk(config), 'secret\n');
    assert.equal(readDisk(env), 'secret\n');
  });

  test('one member of multi_edit_files through a link out refuses the whole request', async () => {
    const good = writeScratchFile(fixture.dir, 'good.txt', 'secret\n');
    await withSettings({ confirmation: 'never' }, async () => {
      const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT_FILES, { files: [change(good), change(link(secret, 'bad-link'))] }), 'OUTSIDE_WORKSPACE');
      assert.equal(envelope.file_index, 1);
    });
    assert.equal(readDisk(good), 'secret\n');
    assert.equal(vscode.workspace.textDocuments.find((document) => document.uri.fsPath === good)?.isDirty ?? false, false);
  });
});

(process.platform === 'win32' ? suite.skip : suite)('language-model tools: a directory swapped for a link while calls run', () => {
  const fixture = toolSuiteFixture('link-race');
  let outside: string;
  let secret: string;

  setup(() => {
    outside = scratchDir('race-outside', 'outside');
    secret = writeScratchFile(outside, 's.txt', 'secret\n');
  });
  teardown(async () => {
    fs.rmSync(outside, { recursive: true, force: true });
    await closeAllEditors();
  });

  test('a directory swapped for a link to outside while 200 calls run: each call gets its code, and how many edits landed outside is reported', async function () {
    this.timeout(300_000);
    const swapped = path.join(fixture.dir, 'swapped');
    const held = path.join(fixture.dir, 'held');
    const target = writeScratchFile(swapped, 's.txt', 'secret\n');
    const swapper = startDirectorySwapper(swapped, held, outside);
    const tally = new Map<string, number>();
    const firstMessage = new Map<string, string>();
    let shownAsProblem = false;
    try {
      await withSettings({ confirmation: 'never' }, async () => {
        for (let call = 0; call < 200; call++) {
          const { response } = await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'secret', new_string: 'secret\n' }] });
          const code = response.success ? 'ok' : response.error_code;
          tally.set(code, (tally.get(code) ?? 0) + 1);
          if (!response.success && !firstMessage.has(code)) {
            firstMessage.set(code, response.message);
          }
          // The Problems panel is fed from the request's record once the call has answered: give it a moment.
          for (let wait = 0; code === 'SAVE_REDIRECTED' && !shownAsProblem && wait < 40; wait++) {
            shownAsProblem = vscode.languages.getDiagnostics(vscode.Uri.file(target)).some((diagnostic) => diagnostic.source === 'multi-edit'
              && (typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code) === 'SAVE_REDIRECTED');
            if (!shownAsProblem) {
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        }
      });
    } finally {
      await swapper.stop();
    }
    // VS Code's own save follows links: the scope is checked when the request is planned and
    // again right before the commit, and a swap in the moments after that check still lands.
    // Each edit adds a line break, so the file outside counts the saves that reached it.
    const landedOutside = readDisk(secret).split('\n').length - 2;
    // A save that went outside leaves the edit in the buffer without the planned file holding it: each must be reported.
    const detected = tally.get('SAVE_REDIRECTED') ?? 0;
    const line = `directory-for-link race in VS Code: ${[...tally].sort().map(([code, count]) => `${count} ${code}`).join(', ')}; ${landedOutside} edit(s) landed in the file outside, ${detected} save(s) reported SAVE_REDIRECTED`;
    console.log(`      ${line}`);
    // The extension host's console is not the runner's: the figure goes to a file when asked.
    const figuresFile = process.env.MULTI_EDIT_LINK_RACE_FIGURES;
    if (figuresFile) {
      fs.writeFileSync(figuresFile, `${line}\n`);
    }
    const allowed = new Set(['ok', 'OUTSIDE_WORKSPACE', 'FILE_NOT_FOUND', 'STALE_CONTENT', 'MATCH_NOT_FOUND', 'FILE_BUSY', 'WRITE_FAILED', 'SAVE_REDIRECTED']);
    for (const code of tally.keys()) {
      assert.ok(allowed.has(code), `an expected code, not ${code}: ${firstMessage.get(code)}`);
    }
    // Not yet a promise: a save's check by real path catches most escapes, not every one (one run on 1.139.1: 16 of 23),
    // so a run with a single escape may report none. The figures above are the measure until the check holds for all
    // (SECURITY.md states the limit); the next test makes an escape at a known moment and holds its report.
    if (detected > 0) {
      assert.match(firstMessage.get('SAVE_REDIRECTED') ?? '', /was edited, but saving it was not confirmed/);
      assert.ok(shownAsProblem, 'the Problems panel showed SAVE_REDIRECTED on the file');
    }
  });

  test('a directory swapped for a link as VS Code saves: the call is SAVE_REDIRECTED, the edit stays in the editor, and the text outside is the one VS Code wrote', async () => {
    const swapped = path.join(fixture.dir, 'swapped-once');
    const held = path.join(fixture.dir, 'held-once');
    const target = writeScratchFile(swapped, 's.txt', 'secret\n');
    // The file outside looks like the one planned (size and time), so VS Code sees no conflict and saves through the link.
    const planned = fs.statSync(target);
    fs.utimesSync(secret, planned.atime, planned.mtime);
    let swaps = 0;
    const swapAtSave = vscode.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.fsPath === target && swaps++ === 0) {
        fs.renameSync(swapped, held);
        fs.symlinkSync(outside, swapped, 'dir');
      }
    });
    try {
      const reply = await withSettings({ confirmation: 'never' }, () => invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'secret', new_string: 'public' }] }));
      assert.equal(swaps, 1, 'VS Code saved the edited file once');
      const error = expectError(reply, 'SAVE_REDIRECTED');
      assert.match(error.message, /was edited, but saving it was not confirmed/);
      assert.equal(readDisk(path.join(held, 's.txt')), 'secret\n', 'the file planned was not written');
      assert.equal(readDisk(secret), 'public\n', 'the save followed the link');
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === target);
      assert.equal(document?.getText(), 'public\n', 'the edit is in the editor, where undo takes it back');
    } finally {
      swapAtSave.dispose();
      if (fs.lstatSync(swapped, { throwIfNoEntry: false })?.isSymbolicLink()) {
        fs.unlinkSync(swapped);
        fs.renameSync(held, swapped);
      }
    }
  });
});
