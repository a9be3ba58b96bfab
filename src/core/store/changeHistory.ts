/**
 * What the history keeps of a commit: each change as the files it leaves, before and
 * after. Built from the very changes the store commits, so the record and the write
 * cannot disagree. A file's text before is kept whole; after, only its digest.
 */
import type { HistoryFile, KeptText } from '../contract/history';
import type { PlannedChange, StoredText } from './fileStore';

/** The digest a history compares texts by (SHA-256, hex); the adapter brings it, the core has no hashing. */
export type TextDigest = (text: string) => string;

type Content = Pick<StoredText, 'text' | 'bom' | 'encoding'>;

export function historyFilesOf(changes: readonly PlannedChange[], digest: TextDigest): HistoryFile[] {
  const before = (content: Content): KeptText => ({ text: content.text, ...shape(content) });
  const after = (content: Content): KeptText => ({ sha256: digest(content.text), ...shape(content) });
  return changes.map((change): HistoryFile => {
    switch (change.kind) {
      case 'update':
        return { path: change.path, operation: 'update', before: before(change.original), after: after(change) };
      case 'add':
        return { path: change.path, operation: 'add', after: { ...after({ text: change.text, bom: change.bom }), ...(change.encoding !== undefined ? { encoding: change.encoding } : {}) } };
      case 'delete':
        return { path: change.path, operation: 'delete', before: before(change.original) };
      case 'move':
        return { path: change.path, operation: 'move', moved_from: change.from, before: before(change.original), after: after(change) };
    }
  });
}

/** The BOM, and the encoding when the store tells one (a version token is not kept). */
function shape(content: Content): Pick<KeptText, 'bom' | 'encoding'> {
  return { bom: content.bom, ...(content.encoding !== undefined ? { encoding: content.encoding.name } : {}) };
}

/** Whether a text read now is the one a kept content describes (by its text or its digest). */
export function holdsKept(now: Pick<StoredText, 'text' | 'bom'>, kept: KeptText, digest: TextDigest): boolean {
  if (now.bom !== kept.bom) {
    return false;
  }
  return kept.text !== undefined ? now.text === kept.text : kept.sha256 !== undefined && digest(now.text) === kept.sha256;
}
