/** The `multi_edit_files` tool: exact-string edits to several files, all or none. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT_FILES } from '../../core/index';
import { editsLabel, filesLabel } from '../platform/counts';
import { EditTool, namedFiles, progressLine } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

export class MultiEditFilesTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT_FILES;

  protected invocationMessage(request: RequestSummary): string {
    const scope = vscode.l10n.t('{0} to {1}', editsLabel(request.totalEdits), filesLabel(request.files.length));
    return progressLine(request, request.files.length === 0 ? scope : `${scope}: ${namedFiles(request)}`);
  }
}
