/**
 * The demo is what a new user tries first, so following it must leave working code: the requests
 * that succeed, and the ambiguous one once its "Retry with replace_all" quick fix is taken, leave the
 * demo workspace free of TypeScript errors.
 */
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { runRequest, toolForRequest, type EngineResponse } from '../../src/core/index';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { REPO_ROOT } from './helpers/manifest';

interface DemoEdit { old_string: string; new_string: string; replace_all?: boolean }
interface DemoFile { file_path: string; edits: DemoEdit[] }
type DemoRequest = DemoFile | { files: DemoFile[] };

function readDemoRequest(name: string): DemoRequest {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'demo', 'requests', name), 'utf8')) as DemoRequest;
}

/** The demo's workspace-relative paths made absolute in `workspace`, as VS Code resolves them. */
function inWorkspace(request: DemoRequest, workspace: string): DemoRequest {
  const absolute = (file: DemoFile): DemoFile => ({ ...file, file_path: join(workspace, file.file_path) });
  return 'files' in request ? { ...request, files: request.files.map(absolute) } : absolute(request);
}

async function apply(request: DemoRequest): Promise<EngineResponse> {
  return (await runRequest(toolForRequest(request), request, { store: new NodeFileStore() })).response;
}

function typeErrors(workspace: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(workspace, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => assert.fail(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
  });
  assert.ok(config);
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${diagnostic.file.fileName.slice(workspace.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

describe('demo: following it leaves working code', function () {
  this.timeout(120_000);
  let workspace: string;

  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'multi-edit-demo-ts-'));
    cpSync(join(REPO_ROOT, 'demo', 'workspace'), workspace, { recursive: true });
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  // One type check at the end: it is the slow part, and any error it finds names its file and line.
  it('applies 01 and 02, fails 04 as AMBIGUOUS_MATCH, takes its replace_all fix, and type-checks', async () => {
    for (const name of ['01-rename-total.multiedit.json', '02-crlf-multiline.multiedit.json']) {
      const response = await apply(inWorkspace(readDemoRequest(name), workspace));
      assert.equal(response.success, true, `${name}: ${JSON.stringify(response)}`);
    }
    const ambiguous = inWorkspace(readDemoRequest('04-ambiguous-match.multiedit.json'), workspace) as DemoFile;
    const failure = await apply(ambiguous);
    assert.equal(failure.success === false && failure.error_code, 'AMBIGUOUS_MATCH');
    const retried = await apply({ ...ambiguous, edits: ambiguous.edits.map((edit) => ({ ...edit, replace_all: true })) });
    assert.equal(retried.success, true, JSON.stringify(retried));
    assert.deepEqual(typeErrors(workspace), []);
  });
});
