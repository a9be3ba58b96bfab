/**
 * Show Request History: the requests applied under the workspace folders, from VS Code, the
 * multi-edit command line or the MCP server alike (one history per folder, shared with
 * them), newest first. Each has two buttons: Preview, a dry-run undo shown as the diff undo
 * would apply (the file now against what undo restores), and Undo, which takes the request
 * back through the workspace's store, so open editors show the restored text. A refusal
 * (STALE_CONTENT: a file changed since) is an error naming each file.
 *
 * Run with `{ requestId, action: 'preview' | 'undo' }`, it acts on that request without
 * asking, and returns the answer (a test, or a link elsewhere, drives it so).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ErrorEnvelope, HistoryEntry, SuccessResponse } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import type { ReadOnlyDocuments } from '../platform/readOnlyDocuments';
import { displayPath } from '../platform/workspacePaths';
import type { HistoryItem } from '../run/editorHistory';
import type { EditorCommand, EditorDeps } from './editorCommand';

/** How many recent requests the pick lists. */
const LISTED = 100;

type HistoryAction = 'preview' | 'undo';
type UndoAnswer = SuccessResponse | ErrorEnvelope;

interface HistoryActionArgument {
  readonly requestId: string;
  readonly action: HistoryAction;
}

function isHistoryAction(value: unknown): value is HistoryActionArgument {
  const candidate = value as Partial<HistoryActionArgument> | undefined;
  return typeof candidate?.requestId === 'string' && (candidate.action === 'preview' || candidate.action === 'undo');
}

interface HistoryPickItem extends vscode.QuickPickItem {
  readonly item: HistoryItem;
}

export function showRequestHistoryCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.showRequestHistory,
    async run(argument?: unknown): Promise<UndoAnswer | undefined> {
      const { runner } = deps.services;
      if (isHistoryAction(argument)) {
        const item = await runner.historyItem(argument.requestId);
        if (!item) {
          void vscode.window.showErrorMessage(vscode.l10n.t('Multi-Edit: the request history of the workspace folders keeps no request {0}.', argument.requestId));
          return undefined;
        }
        return act(deps, item, argument.action);
      }
      const items = await runner.historyItems(LISTED);
      if (items.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: the request history of the workspace folders is empty (see the setting multiEdit.history.enabled).'));
        return undefined;
      }
      const chosen = await pick(items);
      return chosen ? act(deps, chosen.item, chosen.action) : undefined;
    },
  };
}

interface ItemButtons {
  readonly preview: vscode.QuickInputButton;
  readonly undo: vscode.QuickInputButton;
}

/** The pick: a button chooses its action; Enter previews, the action that writes nothing. */
function pick(items: readonly HistoryItem[]): Promise<{ readonly item: HistoryItem; readonly action: HistoryAction } | undefined> {
  const quickPick = vscode.window.createQuickPick<HistoryPickItem>();
  quickPick.title = vscode.l10n.t('Multi-Edit: request history');
  quickPick.placeholder = vscode.l10n.t('Pick a request: Enter or the diff button previews its undo, the discard button undoes it');
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  const buttons: ItemButtons = {
    preview: { iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Preview: the diff undo would apply') },
    undo: { iconPath: new vscode.ThemeIcon('discard'), tooltip: vscode.l10n.t('Undo this request') },
  };
  quickPick.items = items.map((item) => pickItem(item, buttons));
  return new Promise((resolve) => {
    const done = (chosen: { readonly item: HistoryItem; readonly action: HistoryAction } | undefined): void => {
      resolve(chosen);
      quickPick.dispose();
    };
    quickPick.onDidTriggerItemButton((event) => done({ item: event.item.item, action: event.button === buttons.undo ? 'undo' : 'preview' }));
    quickPick.onDidAccept(() => {
      const active = quickPick.activeItems[0];
      done(active ? { item: active.item, action: 'preview' } : undefined);
    });
    quickPick.onDidHide(() => done(undefined));
    quickPick.show();
  });
}

function pickItem(item: HistoryItem, buttons: ItemButtons): HistoryPickItem {
  const { entry } = item;
  const when = new Date(entry.time).toLocaleString();
  const undone = entry.undone_at !== undefined ? ` · ${vscode.l10n.t('undone {0}', new Date(entry.undone_at).toLocaleString())}` : '';
  return {
    label: entry.summary,
    description: `${entry.request_id} · ${when} · ${entry.surface}${undone}`,
    detail: `${path.basename(item.root)}: ${entry.files.map((file) => `${file.operation} ${relative(item.root, file.path)}`).join(', ')}`,
    buttons: entry.undone_at === undefined ? [buttons.preview, buttons.undo] : [],
    item,
  };
}

async function act(deps: EditorDeps, item: HistoryItem, action: HistoryAction): Promise<UndoAnswer> {
  const { runner, lastEdit } = deps.services;
  const id = item.entry.request_id;
  const answer = await runner.undoFromHistory(item, action === 'preview', { source: 'command' });
  if (!answer.success) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Multi-Edit: request {0} was not undone ({1}): {2}', id, answer.error_code, answer.message));
    return answer;
  }
  if (action === 'preview') {
    await showUndoDiff(deps.documents, (await runner.historyItemWithTexts(item)).entry);
  } else {
    lastEdit.noteUndoneFromHistory(id);
    void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: undid request {0} ({1}).', id, item.entry.summary));
  }
  return answer;
}

/**
 * The diff undo would apply, one entry per file: the file as it is now (left) against what
 * undo leaves there (right); a file undo removes goes empty, one it re-creates comes from empty.
 */
async function showUndoDiff(documents: ReadOnlyDocuments, entry: HistoryEntry): Promise<void> {
  const shown = (name: string, text: string): vscode.Uri => documents.put(`undo/${entry.request_id}/${name}`, text);
  const changes = entry.files.map((file, index): [vscode.Uri, vscode.Uri, vscode.Uri] => {
    const now = vscode.Uri.file(file.path);
    const restored = file.before?.text ?? '';
    const name = (label: string, where: string): string => `${index + 1}-${label}/${path.basename(where)}`;
    switch (file.operation) {
      case 'add':
        return [now, now, shown(name('removed', file.path), '')];
      case 'delete':
        return [now, shown(name('absent', file.path), ''), shown(name('restored', file.path), restored)];
      case 'update':
      case 'move':
        return [vscode.Uri.file(file.moved_from ?? file.path), now, shown(name('restored', file.moved_from ?? file.path), restored)];
    }
  });
  await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Undo of request {0}', entry.request_id), changes);
}

function relative(root: string, file: string): string {
  const inside = path.relative(root, file);
  return inside.startsWith('..') || path.isAbsolute(inside) ? displayPath(file) : inside.split(path.sep).join('/');
}
