/** The `multiEdit.diagnostics.*` settings, read afresh on every use. */
import * as vscode from 'vscode';
import { CONFIG_SECTION } from '../platform/ids';

export const DIAGNOSTICS_SECTION = `${CONFIG_SECTION}.diagnostics`;
export const HISTORY_LIMIT_KEY = 'historyLimit';
export const CONFIRM_REPLACE_ALL_KEY = 'confirmReplaceAll';

/** package.json declares the same default and bounds. */
export const HISTORY_LIMIT = { default: 20, min: 1, max: 500 } as const;

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(DIAGNOSTICS_SECTION);
}

/** How many failed requests keep their diagnostics; older ones are dropped. */
export function historyLimit(): number {
  const raw = section().get<unknown>(HISTORY_LIMIT_KEY);
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return HISTORY_LIMIT.default;
  }
  return Math.min(HISTORY_LIMIT.max, Math.max(HISTORY_LIMIT.min, Math.round(raw)));
}

/** Whether "Retry with replace_all" asks before it changes the file. */
export function confirmReplaceAll(): boolean {
  return section().get<unknown>(CONFIRM_REPLACE_ALL_KEY) !== false;
}
