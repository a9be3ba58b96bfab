/**
 * What the history keeps of a commit: each change as the files it leaves, before and
 * after. Built from the very changes the store commits, so the record and the write
 * cannot disagree. A file's text before is kept whole; after, only its digest.
 */
import type { HistoryFile, KeptText } from '../contract/history';
import type { PlannedChange, StoredText } from './fileStore';
import { type EditedText, wholeText } from '../text/editedText';

/** The digest a history compares texts by (SHA-256, hex, of the text's parts in turn); the adapter brings it, the core has no hashing. */
export type TextDigest = (text: Pick<EditedText, 'parts'>) => string;

/**
 * The bytes a text is written as in an encoding (undefined: UTF-8), BOM included, or undefined
 * when the adapter cannot tell without encoding it; the adapter brings it, as it does the digest.
 */
export type TextByteLength = (text: Pick<EditedText, 'parts' | 'length'>, bom: boolean, encoding: string | undefined) => number | undefined;

type Content = Pick<StoredText, 'text' | 'bom' | 'encoding'>;

/** `byteLength`, when given, measures what each file holds after the request (undo reads that much whatever its limit). */
export function historyFilesOf(changes: readonly PlannedChange[], digest: TextDigest, byteLength?: TextByteLength): HistoryFile[] {
  const before = (content: Content): KeptText => ({ text: content.text, ...shape(content) });
  // `kept`: the encoding the record names (an add's own); `written`: the one the text is written in,
  // which for an update or a move is the encoding the file was read in (the record names it in `before`).
  const after = (text: EditedText, bom: boolean, kept: string | undefined, written = kept): KeptText => {
    const bytes = byteLength?.(text, bom, written);
    return { sha256: digest(text), bom, ...(kept !== undefined ? { encoding: kept } : {}), ...(bytes !== undefined ? { bytes } : {}) };
  };
  return changes.map((change): HistoryFile => {
    switch (change.kind) {
      case 'update':
        return { path: change.path, operation: 'update', before: before(change.original), after: after(change.text, change.bom, undefined, change.original.encoding?.name) };
      case 'add':
        return { path: change.path, operation: 'add', after: after(change.text, change.bom, change.encoding) };
      case 'delete':
        return { path: change.path, operation: 'delete', before: before(change.original) };
      case 'move':
        return { path: change.path, operation: 'move', moved_from: change.from, before: before(change.original), after: after(change.text, change.bom, undefined, change.original.encoding?.name) };
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
  return kept.text !== undefined ? now.text === kept.text : kept.sha256 !== undefined && digest(wholeText(now.text)) === kept.sha256;
}
