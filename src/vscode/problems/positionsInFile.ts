/**
 * Whether an envelope's positions for a failed edit are positions in its file as read. The engine
 * checks each edit against the text the earlier edits of its file leave, and reports positions in
 * that text; they are the file's own only when no earlier edit of the file applied, that is, when
 * edit_status lists every earlier one as failed or skipped. No vscode import.
 */
import { type ErrorEnvelope, fileIndexOfStatus } from '../../core/index';

export function positionsInFileAsRead(envelope: ErrorEnvelope, fileIndex: number, editIndex: number): boolean {
  const notApplied = new Set(envelope.edit_status.filter((status) => fileIndexOfStatus(status, envelope) === fileIndex).map((status) => status.edit_index));
  for (let earlier = 0; earlier < editIndex; earlier++) {
    if (!notApplied.has(earlier)) {
      return false;
    }
  }
  return true;
}
