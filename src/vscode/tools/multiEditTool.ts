/** The `multi_edit` tool: ordered exact-string edits to one file. */
import { plural, TOOL_MULTI_EDIT } from '../../core/index';
import { describeTarget, EditTool } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

export class MultiEditTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT;

  protected invocationMessage(request: RequestSummary): string {
    const file = request.files[0];
    const target = file === undefined ? 'a file' : describeTarget(file);
    const edits = plural(request.totalEdits, 'edit');
    return request.dryRun ? `Checking ${edits} to ${target} (dry run)` : `Applying ${edits} to ${target}`;
  }
}
