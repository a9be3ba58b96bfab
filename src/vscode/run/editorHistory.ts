/**
 * The request history as the extension keeps it: the same history the multi-edit command
 * line and the MCP server keep (src/shared/history), in the same state folder, one per
 * workspace folder keyed by the folder's real path (as the command line keys --root). So a
 * request applied in VS Code is listed and undone from the command line, and the reverse.
 * The multiEdit.history.enabled setting and MULTI_EDIT_NO_HISTORY turn the recording off;
 * every applied request still gets its request_id.
 */
import { realpathSync } from 'node:fs';
import * as vscode from 'vscode';
import type { EngineOptions, ErrorEnvelope, FileStore, HistoryEntry, SuccessResponse } from '../../core/index';
import { byCommit, historySettingsFromEnv, requestId } from '../../shared/history/historyBook';
import { type RecordedRun, RequestHistory } from '../../shared/history/requestHistory';
import type { SettingsReader } from '../platform/settings';
import { displayPath } from '../platform/workspacePaths';

/** A request of the history, with the workspace folder (its real path) whose history keeps it. */
export interface HistoryItem {
  readonly root: string;
  readonly entry: HistoryEntry;
}

export class EditorHistory {
  private readonly history: RequestHistory;

  constructor(private readonly settings: SettingsReader, env: NodeJS.ProcessEnv = process.env) {
    this.history = new RequestHistory(historySettingsFromEnv(env), 'vscode');
  }

  /** A request about to be applied to `paths` (absolute): its id, and a store that records it when the history is on. */
  async record(paths: readonly string[], store: FileStore): Promise<RecordedRun> {
    const root = this.settings.current().historyEnabled && this.history.enabled ? rootOf(paths) : undefined;
    return root === undefined ? { store, requestId: requestId(), finish: (response) => response } : this.history.record(root, store, displayPath);
  }

  /** The recent requests of every workspace folder, the last committed first. */
  async list(store: FileStore, limit: number): Promise<HistoryItem[]> {
    const lists = await Promise.all(workspaceRoots().map(async (root) => (await this.history.list(root, store, limit)).map((entry) => ({ root, entry }))));
    return lists.flat().sort((a, b) => byCommit(b.entry, a.entry)).slice(0, limit);
  }

  /** The request `id` of any workspace folder's history. */
  async find(id: string, store: FileStore): Promise<HistoryItem | undefined> {
    for (const root of workspaceRoots()) {
      const entry = (await this.history.list(root, store, Number.MAX_SAFE_INTEGER)).find((candidate) => candidate.request_id === id);
      if (entry) return { root, entry };
    }
    return undefined;
  }

  /** Undoes request `id` of `root`'s history through `options` (the runner's store and path check). */
  undo(root: string, id: string, dryRun: boolean, options: EngineOptions): Promise<SuccessResponse | ErrorEnvelope> {
    return this.history.undo(root, id, dryRun, options);
  }

  /** The item with every text its request keeps, those kept by a link read back (the command line links a large file's old bytes). */
  async withKeptTexts(item: HistoryItem, store: FileStore): Promise<HistoryItem> {
    return { root: item.root, entry: await this.history.withKeptTexts(item.root, item.entry, store) };
  }

  /** The editor's own undo took request `id` back: the history says so, so it is not offered again. */
  async markUndone(id: string, store: FileStore): Promise<void> {
    const item = await this.find(id, store);
    if (item) {
      await this.history.markUndone(item.root, id, store);
    }
  }
}

/** The real path of the workspace folder holding the first of `paths` that lies in one; else the first folder's. */
function rootOf(paths: readonly string[]): string | undefined {
  const holder = paths.map((path) => vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path))).find((folder) => folder !== undefined && folder.uri.scheme === 'file');
  const folder = holder ?? vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
  return folder ? realPath(folder.uri.fsPath) : undefined;
}

function workspaceRoots(): string[] {
  return [...new Set((vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => realPath(folder.uri.fsPath)))];
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
