/**
 * The host behind every Node command (apply, patch, mcp), as each command builds it: every
 * store it makes is confined by the command's scope, and a call reads its request once,
 * however many files it names and whether or not it takes turns. (Lint keeps cli/ and mcp/
 * from building a store or the engine's options themselves, so these hosts are the only ones.)
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as parsePatchModule from '../../src/core/patch/parsePatch';
import * as requestModule from '../../src/core/formats/inputFormats';
import { applyScope, patchScope } from '../../src/node/host/cliPaths';
import type { HostScope } from '../../src/node/host/hostScope';
import { NodeHost } from '../../src/node/host/nodeHost';
import { mcpScope } from '../../src/node/host/scope';
import type { ConfinementRule } from '../../src/node/store/confinement';
import * as storeModule from '../../src/node/store/nodeFileStore';
import { useTempDir } from './helpers/tempDir';

const NOT_CANCELLED = { isCancellationRequested: false };

/** Replaces `module[name]` (a CommonJS export, read at each call) with `wrap(original)` until the returned undo runs. */
function spyOn<M extends object, K extends keyof M>(module: M, name: K, wrap: (original: M[K]) => M[K]): () => void {
  const original = module[name];
  (module as Record<K, M[K]>)[name] = wrap(original);
  return () => {
    (module as Record<K, M[K]>)[name] = original;
  };
}

describe('Node host: one scope, confinement and reading for apply, patch and mcp', () => {
  const base = useTempDir('host');
  let root: string;
  let outside: string;

  beforeEach(() => {
    root = path.join(base(), 'root');
    outside = path.join(base(), 'outside');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'const a = 1;\nconst b = 2;\n');
    fs.writeFileSync(path.join(root, 'src', 'b.ts'), 'export const c = 3;\n');
  });

  /** Each command's scope, as its transport builds it. */
  const commands: readonly { readonly name: string; readonly inRoot: boolean; readonly scope: () => Promise<HostScope> }[] = [
    { name: 'apply', inRoot: false, scope: async () => applyScope([]) },
    { name: 'patch', inRoot: true, scope: () => patchScope(root, []) },
    { name: 'mcp', inRoot: true, scope: () => mcpScope([root], base(), []) },
  ];

  const editRequest = () => ({ file_path: path.join(root, 'src', 'a.ts'), edits: [{ old_string: 'const b = 2;', new_string: 'const b = 3;' }], dry_run: true });

  for (const command of commands) {
    it(`${command.name}: every store the host builds is confined, and the rule refuses protected real paths${command.inRoot ? ' and real paths outside the root' : ''}`, async () => {
      const rules: (ConfinementRule | undefined)[] = [];
      const undo = spyOn(storeModule, 'NodeFileStore', (Original) => class extends Original {
        constructor(...args: ConstructorParameters<typeof Original>) {
          super(...args);
          rules.push(args[1]?.confine);
        }
      });
      try {
        const host = new NodeHost({ scope: await command.scope(), syntaxCheck: 'off', log: () => undefined });
        const { response } = await host.run('multi_edit', { ...editRequest(), dry_run: false }, NOT_CANCELLED);
        assert.ok(response.success, JSON.stringify(response));
      } finally {
        undo();
      }
      assert.equal(rules.length, 1, 'one store for the call');
      const rule = rules[0];
      assert.ok(rule, 'the store was given a confinement rule');
      assert.equal(rule(path.join(root, 'src', 'a.ts')), undefined, 'a file inside is written');
      assert.equal(rule(path.join(root, '.git', 'config'))?.code, 'FORBIDDEN_PATH');
      assert.equal(rule(path.join(root, '.env'))?.code, 'FORBIDDEN_PATH');
      assert.equal(rule(path.join(outside, 'x.ts'))?.code, command.inRoot ? 'OUTSIDE_WORKSPACE' : undefined);
    });
  }

  describe('a call reads its request once', () => {
    let parses: { request: number; patch: number };
    let undo: (() => void)[];

    beforeEach(() => {
      parses = { request: 0, patch: 0 };
      undo = [
        spyOn(requestModule, 'parseRequest', (original) => (tool, input) => {
          parses.request++;
          return original(tool, input);
        }),
        spyOn(parsePatchModule, 'parsePatch', (original) => (text) => {
          parses.patch++;
          return original(text);
        }),
      ];
    });

    afterEach(() => {
      undo.forEach((restore) => restore());
    });

    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@',
      '-const b = 2;',
      '+const b = 3;',
      '*** Update File: src/b.ts',
      '*** Move to: src/c.ts',
      '@@',
      '-export const c = 3;',
      '+export const c = 4;',
      '*** Add File: src/d.ts',
      '+export const d = 5;',
      '*** End Patch',
      '',
    ].join('\n');

    for (const command of commands) {
      it(`${command.name}: one parse of the request, and one of a patch's text, per call`, async () => {
        const host = new NodeHost({ scope: await command.scope(), syntaxCheck: 'refuse', log: () => undefined, session: command.name === 'mcp' });
        const calls = command.inRoot
          ? [['multi_edit_patch', { patch, dry_run: true }], ['multi_edit', editRequest()], ['multi_edit_patch', { patch }]] as const
          : [['multi_edit', editRequest()], ['multi_edit_files', { files: [{ file_path: editRequest().file_path, edits: editRequest().edits }], dry_run: true }]] as const;
        for (const [tool, input] of calls) {
          const before = { ...parses };
          const { response } = await host.run(tool, input, NOT_CANCELLED);
          assert.ok(response.success, JSON.stringify(response));
          assert.equal(parses.request - before.request, 1, `${tool}: parseRequest once`);
          assert.equal(parses.patch - before.patch, tool === 'multi_edit_patch' ? 1 : 0, `${tool}: the patch text read once`);
        }
        if (command.inRoot) {
          assert.equal(fs.readFileSync(path.join(root, 'src', 'c.ts'), 'utf8'), 'export const c = 4;\n', 'the last patch was applied');
        }
      });
    }

    it('the JSON report of the CLI (diffs as pieces) reads its request once too', async () => {
      const host = new NodeHost({ scope: await patchScope(root, []), syntaxCheck: 'off', log: () => undefined });
      const { response } = await host.runWithDiffPieces('multi_edit_patch', { patch, dry_run: true }, NOT_CANCELLED);
      assert.ok(response.success);
      assert.deepEqual(parses, { request: 1, patch: 1 });
    });

    it('a request that fails to parse is answered VALIDATION_FAILED after one parse, and names no file to wait for', async () => {
      const host = new NodeHost({ scope: await mcpScope([root], base(), []), syntaxCheck: 'off', log: () => undefined, session: true });
      const { response } = await host.run('multi_edit_patch', { patch: '*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\n' }, NOT_CANCELLED);
      assert.equal(!response.success && response.error_code, 'VALIDATION_FAILED');
      assert.deepEqual(parses, { request: 1, patch: 1 });
    });
  });
});
