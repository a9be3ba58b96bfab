/** The `multi_edit` tool: ordered exact-string edits to one file. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../core/index';
import { editsLabel } from '../platform/counts';
import { describeTarget, EditTool, progressLine } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

export class MultiEditTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT;

  protected invocationMessage(request: RequestSummary): string {
    const file = request.files[0];
    const target = file === undefined ? vscode.l10n.t('a file') : describeTarget(file);
    return progressLine(request, vscode.l10n.t('{0} to {1}', editsLabel(request.totalEdits), target));
  }
}
