/**
 * The status bar item: the last request's outcome ("$(check) 3 edits", "$(error) MATCH_NOT_FOUND")
 * and the number of open Multi-Edit problems. A click opens the problems when there are any (or
 * the last request failed), the last response otherwise. The setting multiEdit.statusBar.enabled
 * hides it.
 */
import * as vscode from 'vscode';
import { type EngineResponse, userChoseOutcome } from '../../core/index';
import { COMMANDS, DIAGNOSTIC_SOURCE, REQUEST_MARKER_SOURCE } from '../platform/ids';
import type { Services } from '../run/services';
import { affectsSetting } from '../platform/settings';
import { editsLabel } from '../platform/counts';

const STATUS_ITEM_ID = 'multiEdit.status';
const SHOW_PROBLEMS = 'workbench.actions.view.problems';

/** Outcomes the user chose: shown without the error mark. */

/** Every Multi-Edit problem the Problems panel lists: in the edited files and in request files. */
export function countOpenProblems(): number {
  const ours = new Set([DIAGNOSTIC_SOURCE, REQUEST_MARKER_SOURCE]);
  return vscode.languages.getDiagnostics()
    .reduce((count, [, diagnostics]) => count + diagnostics.filter((diagnostic) => diagnostic.source !== undefined && ours.has(diagnostic.source)).length, 0);
}


function outcomeText(response: EngineResponse, undone: boolean): string {
  if (response.success) {
    const edits = response.files.reduce((sum, file) => sum + file.edits_applied, 0);
    if (undone) {
      return `$(discard) ${vscode.l10n.t('{0} undone', editsLabel(edits))}`;
    }
    return response.dry_run ? `$(check) ${vscode.l10n.t('{0} (dry run)', editsLabel(edits))}` : `$(check) ${editsLabel(edits)}`;
  }
  return `${userChoseOutcome(response) ? '$(circle-slash)' : '$(error)'} ${response.error_code}`;
}

function problemsLabel(problems: number): string {
  return problems === 1 ? vscode.l10n.t('1 open problem') : vscode.l10n.t('{0} open problems', problems);
}

export class MultiEditStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Left, 0);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly services: Services) {
    this.item.name = vscode.l10n.t('Multi-Edit');
    this.subscriptions = [
      services.bus.onDidFinish(() => this.update()),
      services.lastEdit.onDidChange(() => this.update()),
      vscode.languages.onDidChangeDiagnostics(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsSetting((section) => event.affectsConfiguration(section), 'showStatusBar')) {
          this.update();
        }
      }),
    ];
    this.update();
  }

  update(): void {
    const lastRecord = this.services.bus.lastOutcome;
    const last = lastRecord?.response;
    const problems = countOpenProblems();
    if (!this.services.settings.current().showStatusBar || (!last && problems === 0)) {
      this.item.hide();
      return;
    }
    const parts = lastRecord ? [outcomeText(lastRecord.response, this.services.lastEdit.isUndone(lastRecord.id))] : [];
    if (problems > 0) {
      parts.push(`$(warning) ${problems}`);
    }
    this.item.text = parts.join('  ');
    this.item.tooltip = this.tooltip(last, problems);
    this.item.accessibilityInformation = { label: [last ? last.summary : '', problemsLabel(problems)].filter(Boolean).join('. ') };
    const failed = last !== undefined && !last.success && !userChoseOutcome(last);
    this.item.command = problems > 0 || failed
      ? { command: SHOW_PROBLEMS, title: vscode.l10n.t('Show Problems') }
      : { command: COMMANDS.showLastEnvelope, title: vscode.l10n.t('Show Last Response') };
    this.item.backgroundColor = failed ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  private tooltip(last: EngineResponse | undefined, problems: number): vscode.MarkdownString {
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = { enabledCommands: [SHOW_PROBLEMS, COMMANDS.showLastEnvelope] };
    tooltip.appendMarkdown(`**${vscode.l10n.t('Multi-Edit')}**\n\n`);
    if (last) {
      tooltip.appendMarkdown(`${vscode.l10n.t('Last request:')} `).appendText(last.success ? last.summary : `${last.error_code}: ${last.message}`);
      tooltip.appendMarkdown('\n\n');
    }
    tooltip.appendText(problemsLabel(problems));
    tooltip.appendMarkdown(`\n\n[${vscode.l10n.t('Show Problems')}](command:${SHOW_PROBLEMS})`);
    if (last) {
      tooltip.appendMarkdown(` · [${vscode.l10n.t('Show Last Response')}](command:${COMMANDS.showLastEnvelope})`);
    }
    return tooltip;
  }

  dispose(): void {
    vscode.Disposable.from(this.item, ...this.subscriptions).dispose();
  }
}

export function registerStatusBar(context: vscode.ExtensionContext, services: Services): MultiEditStatus {
  const status = new MultiEditStatus(services);
  context.subscriptions.push(status);
  return status;
}
