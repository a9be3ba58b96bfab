/** The `multi_edit_patch` tool: one patch (Codex apply_patch, unified diff or SEARCH/REPLACE) that may add, delete and move files, all or none. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT_PATCH } from '../../core/index';
import { filesLabel } from '../platform/counts';
import { EditTool, namedFiles, progressLine } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

export class MultiEditPatchTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT_PATCH;

  protected invocationMessage(request: RequestSummary): string {
    return progressLine(request, vscode.l10n.t('a patch to {0}: {1}', filesLabel(request.files.length), namedFiles(request)));
  }
}
