/** The `multi_edit_patch` tool: one patch (Codex apply_patch, unified diff or SEARCH/REPLACE) that may add, delete and move files, all or none. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT_PATCH } from '../../core/index';
import { filesLabel } from '../platform/counts';
import { describeTarget, EditTool } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

const NAMED_FILES = 3;

export class MultiEditPatchTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT_PATCH;

  protected invocationMessage(request: RequestSummary): string {
    const named = request.files.slice(0, NAMED_FILES).map(describeTarget);
    const more = request.files.length - named.length;
    const names = more > 0 ? vscode.l10n.t('{0} and {1} more', named.join(', '), more) : named.join(', ');
    const scope = vscode.l10n.t('a patch to {0}: {1}', filesLabel(request.files.length), names);
    return request.dryRun ? vscode.l10n.t('Checking {0} (dry run)', scope) : vscode.l10n.t('Applying {0}', scope);
  }
}
