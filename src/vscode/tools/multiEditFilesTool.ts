/** The `multi_edit_files` tool: exact-string edits to several files, all or none. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT_FILES } from '../../core/index';
import { editsLabel, filesLabel } from '../platform/counts';
import { describeTarget, EditTool } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

const NAMED_FILES = 3;

export class MultiEditFilesTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT_FILES;

  protected invocationMessage(request: RequestSummary): string {
    const named = request.files.slice(0, NAMED_FILES).map(describeTarget);
    const more = request.files.length - named.length;
    const names = more > 0 ? vscode.l10n.t('{0} and {1} more', named.join(', '), more) : named.join(', ');
    const scope = vscode.l10n.t('{0} to {1}', editsLabel(request.totalEdits), filesLabel(request.files.length)) + (named.length === 0 ? '' : `: ${names}`);
    return request.dryRun ? vscode.l10n.t('Checking {0} (dry run)', scope) : vscode.l10n.t('Applying {0}', scope);
  }
}
