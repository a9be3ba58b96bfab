/** Counted nouns as a person reads them, in the display language: "1 edit", "3 files". */
import * as vscode from 'vscode';

export function editsLabel(count: number): string {
  return count === 1 ? vscode.l10n.t('1 edit') : vscode.l10n.t('{0} edits', count);
}

export function filesLabel(count: number): string {
  return count === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', count);
}

export function replacementsLabel(count: number): string {
  return count === 1 ? vscode.l10n.t('1 replacement') : vscode.l10n.t('{0} replacements', count);
}

export function timesLabel(count: number): string {
  return count === 1 ? vscode.l10n.t('once') : vscode.l10n.t('{0} times', count);
}
