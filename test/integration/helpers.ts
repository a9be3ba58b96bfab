// Shared helpers for the integration tests: scratch files inside the test workspace, the
// extension's API, settings that are restored afterwards, and invokeTool exactly as a chat
// participant calls it, with the response parsed from its text part and held to the
// output-hygiene rules.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CONFIG_SECTION, EXTENSION_ID } from '../../src/vscode/platform/ids';
import { TOOL_NAMES, type ToolName } from '../../src/core/contract/toolNames';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../src/core/contract/schemas';
import type { MultiEditApi } from '../../src/vscode/extension';
import { splitRecordId } from '../../src/vscode/tools/recordIdPart';
import { assertHygienic } from '../shared/hygiene';

export async function activateExtension(): Promise<MultiEditApi> {
  const extension = vscode.extensions.getExtension<MultiEditApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is loaded`);
  const api = await extension.activate();
  assert.ok(api, 'activate() returns the test API under the test harness');
  return api;
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  return folder.uri.fsPath;
}

let scratchCount = 0;

/** A new, empty folder for one test: inside the workspace, or in the OS temp folder (outside it). */
export function scratchDir(label: string, where: 'workspace' | 'outside' = 'workspace'): string {
  const parent = where === 'workspace' ? path.join(workspaceRoot(), 'scratch') : os.tmpdir();
  fs.mkdirSync(parent, { recursive: true });
  scratchCount++;
  return fs.mkdtempSync(path.join(parent, `${label}-${scratchCount}-`));
}

export function writeScratchFile(dir: string, name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** A folder's path relative to the workspace folder, with forward slashes: how a patch names files. */
export function patchPath(dir: string): string {
  return path.relative(workspaceRoot(), dir).split(path.sep).join('/');
}

export interface FileOperationsPatch {
  readonly patch: string;
  readonly added: string;
  readonly deleted: string;
  readonly moved: string;
  readonly destination: string;
}

/**
 * A Codex patch that updates `updated` (a file in `dir`) with `hunk`, adds added/new.js,
 * deletes old.txt and moves from/part.js to to/part.js with a changed line; writes the
 * files it deletes and moves.
 */
export function fileOperationsPatch(dir: string, updated: string, hunk: readonly string[]): FileOperationsPatch {
  const relative = patchPath(dir);
  const patch = [
    '*** Begin Patch',
    `*** Update File: ${relative}/${updated}`,
    ...hunk,
    `*** Add File: ${relative}/added/new.js`,
    '+export const added = true;',
    `*** Delete File: ${relative}/old.txt`,
    `*** Update File: ${relative}/from/part.js`,
    `*** Move to: ${relative}/to/part.js`,
    '@@',
    '-export const part = 1;',
    '+export const part = 2;',
    '*** End Patch',
    '',
  ].join('\n');
  return {
    patch,
    added: path.join(dir, 'added', 'new.js'),
    deleted: writeScratchFile(dir, 'old.txt', 'remove me\n'),
    moved: writeScratchFile(dir, 'from/part.js', 'export const part = 1;\n'),
    destination: path.join(dir, 'to', 'part.js'),
  };
}

export function readDisk(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

/** Polls until `condition` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      assert.fail(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Tool information reaches the extension host asynchronously after activation. */
export async function waitForTools(): Promise<readonly vscode.LanguageModelToolInformation[]> {
  await waitFor('both tools in vscode.lm.tools', () => TOOL_NAMES.every((name) => vscode.lm.tools.some((tool) => tool.name === name)));
  return vscode.lm.tools.filter((tool) => (TOOL_NAMES as readonly string[]).includes(tool.name));
}

export interface ToolReply {
  /** The text part as the model sees it. */
  readonly text: string;
  /** Its first line. */
  readonly summaryLine: string;
  /** The JSON after the first line. */
  readonly response: EngineResponse;
  /** The id of the request record, from the result's last part. */
  readonly recordId: number;
}

export async function invokeTool(name: ToolName, input: object, token?: vscode.CancellationToken): Promise<ToolReply> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  const { parts, recordId } = splitRecordId(result.content, (part) => (part instanceof vscode.LanguageModelTextPart ? part.value : undefined));
  assert.ok(recordId !== undefined, 'the last part names the request record');
  assert.equal(parts.length, 1, 'the response is one part before it');
  const part = parts[0];
  assert.ok(part instanceof vscode.LanguageModelTextPart, 'the part is a LanguageModelTextPart');
  const newline = part.value.indexOf('\n');
  assert.ok(newline > 0, 'a summary line comes first');
  const response = JSON.parse(part.value.slice(newline + 1)) as EngineResponse;
  assertHygienic(response);
  return { text: part.value, summaryLine: part.value.slice(0, newline), response, recordId };
}

export function expectSuccess(reply: ToolReply): SuccessResponse {
  assert.equal(reply.response.success, true, `expected success, got ${reply.text}`);
  return reply.response as SuccessResponse;
}

export function expectError(reply: ToolReply, code: ErrorEnvelope['error_code']): ErrorEnvelope {
  assert.equal(reply.response.success, false, `expected ${code}, got ${reply.text}`);
  const envelope = reply.response as ErrorEnvelope;
  assert.equal(envelope.error_code, code, reply.text);
  return envelope;
}

/** Sets user settings of one section and waits until the extension host sees them; returns the restore. */
export async function setUserSettings(section: string, values: Record<string, unknown>): Promise<() => Promise<void>> {
  const config = () => vscode.workspace.getConfiguration(section);
  const previous = Object.fromEntries(Object.keys(values).map((key) => [key, config().inspect(key)?.globalValue]));
  const apply = async (next: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(next)) {
      await config().update(key, value, vscode.ConfigurationTarget.Global);
    }
    await waitFor(`the ${section} settings to reach the extension host`, () =>
      Object.entries(next).every(([key, value]) => JSON.stringify(config().inspect(key)?.globalValue) === JSON.stringify(value)));
  };
  await apply(values);
  return () => apply(previous);
}

/** Runs `body` with user settings under `multiEdit` changed, then restores them. */
export async function withSettings<T>(values: Record<string, unknown>, body: () => Promise<T>): Promise<T> {
  const restore = await setUserSettings(CONFIG_SECTION, values);
  try {
    return await body();
  } finally {
    await restore();
  }
}

/**
 * The browser workbench saves dirty files after a second by default (files.autoSave), which
 * would race every test about dirty buffers; the suites that edit files switch it off.
 */
export function disableAutoSave(): Promise<() => Promise<void>> {
  return setUserSettings('files', { autoSave: 'off' });
}

/** What the hooks of toolSuiteFixture provide; read it inside tests and hooks, once suiteSetup has run. */
export interface ToolSuiteFixture {
  readonly api: MultiEditApi;
  /** A new scratch folder for each test. */
  readonly dir: string;
}

/**
 * The hooks of a suite that edits files through the tools: auto-save off for the whole suite, the
 * extension active with both tools listed, and a new scratch folder (named after `label`) for each
 * test. Call it inside `suite`, before the suite's own hooks.
 */
export function toolSuiteFixture(label: string): ToolSuiteFixture {
  const fixture = {} as { api: MultiEditApi; dir: string };
  let restoreAutoSave: () => Promise<void>;
  suiteSetup(async () => {
    restoreAutoSave = await disableAutoSave();
    fixture.api = await activateExtension();
    await waitForTools();
  });
  suiteTeardown(() => restoreAutoSave());
  setup(() => {
    fixture.dir = scratchDir(label);
  });
  return fixture;
}

export async function openInEditor(file: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(document, { preview: false });
}

/**
 * Discards unsaved changes of a document by reverting it to the disk text. A document VS Code is
 * saving itself (the user settings while a configuration update writes them) turns clean on its
 * own, so each try looks again before showing it.
 */
export async function revertDocument(document: vscode.TextDocument, attempts = 25): Promise<void> {
  for (let attempt = 1; document.isDirty; attempt++) {
    try {
      // VS Code 1.139 may open an editor of its own while a suite starts, and then refuses this show.
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Reverts every dirty document first, so closing never stops at a "save changes?" dialog. */
export async function closeAllEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((candidate) => candidate.isDirty && !candidate.isUntitled)) {
    await revertDocument(document);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
