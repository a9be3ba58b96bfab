/** The `multi_edit_files` tool: exact-string edits to several files, all or none. */
import { plural, TOOL_MULTI_EDIT_FILES } from '../../core/index';
import { describeTarget, EditTool } from './editTool';
import type { RequestSummary } from '../run/requestSummary';

const NAMED_FILES = 3;

export class MultiEditFilesTool extends EditTool {
  protected readonly name = TOOL_MULTI_EDIT_FILES;

  protected invocationMessage(request: RequestSummary): string {
    const named = request.files.slice(0, NAMED_FILES).map(describeTarget);
    const more = request.files.length - named.length;
    const list = named.length === 0 ? '' : `: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    const scope = `${plural(request.totalEdits, 'edit')} to ${plural(request.files.length, 'file')}${list}`;
    return request.dryRun ? `Checking ${scope} (dry run)` : `Applying ${scope}`;
  }
}
