/** The `multi_edit_patch` tool: one patch (Codex apply_patch, unified diff or SEARCH/REPLACE) that may add, delete and move files, all or none. */
import { plural, TOOL_MULTI_EDIT_PATCH } from '../../core/index';
import { describeTarget, EditTool } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

const NAMED_FILES = 3;

export class MultiEditPatchTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT_PATCH;

  protected invocationMessage(request: RequestSummary): string {
    const named = request.files.slice(0, NAMED_FILES).map(describeTarget);
    const more = request.files.length - named.length;
    const scope = `a patch to ${plural(request.files.length, 'file')}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    return request.dryRun ? `Checking ${scope} (dry run)` : `Applying ${scope}`;
  }
}
