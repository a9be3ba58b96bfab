/** The `multi_edit` tool: ordered exact-string edits to one file. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../core/index';
import { editsLabel } from '../platform/counts';
import { describeTarget, EditTool } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

export class MultiEditTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT;

  protected invocationMessage(request: RequestSummary): string {
    const file = request.files[0];
    const target = file === undefined ? vscode.l10n.t('a file') : describeTarget(file);
    const edits = editsLabel(request.totalEdits);
    return request.dryRun ? vscode.l10n.t('Checking {0} to {1} (dry run)', edits, target) : vscode.l10n.t('Applying {0} to {1}', edits, target);
  }
}
