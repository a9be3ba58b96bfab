/**
 * Refuses, before anything is written, an edit whose new_string holds a character the
 * file's encoding cannot represent: written, it would become a "?" the caller never sent.
 * Only a file read in an encoding other than UTF-8 is checked, and only once for the
 * whole new text: its original text was proved to encode back to its bytes when it was
 * read, so any character the encoding refuses came from an edit.
 */
import type { EditToCheck } from '../matching/match';
import type { FileFailure, EditProblem, LeadFailure } from '../plan/filePlan';
import type { StoredText } from '../store/fileStore';
import { LineIndex } from '../text/lineIndex';
import type { EditedText } from '../text/editedText';
import { oldStringExcerpt } from '../contract/format';
import type { FileTarget } from './planFile';

interface EditedFile {
  readonly path: string;
  readonly displayPath: string;
  readonly original: StoredText;
  readonly newText: EditedText;
}

export async function unrepresentableFailure(target: FileTarget, file: EditedFile, edits: readonly EditToCheck[]): Promise<FileFailure | undefined> {
  const encoding = file.original.encoding;
  if (!encoding) {
    return undefined;
  }
  const newText = file.newText.whole();
  const at = await encoding.firstUnrepresentable(newText);
  if (at === -1) {
    return undefined;
  }
  const character = characterAt(newText, at);
  const faulty: { editIndex: number; offset: number }[] = [];
  for (const [editIndex, edit] of edits.entries()) {
    const offset = await encoding.firstUnrepresentable(edit.newString);
    if (offset !== -1) {
      faulty.push({ editIndex, offset });
    }
  }
  // The character the whole text refuses first is the one to name; the edit is the first that writes it.
  const leadEdit = edits.findIndex((edit) => edit.newString.includes(character));
  const where = LineIndex.of(newText).position(at);
  const describe = (char: string): string => `${JSON.stringify(char)} (${codePoint(char)})`;
  const problems: EditProblem[] = faulty.map(({ editIndex, offset }) => ({
    editIndex,
    status: 'failed',
    code: 'UNREPRESENTABLE_CHARACTER',
    message: `new_string holds ${describe(characterAt(edits[editIndex].newString, offset))}, which ${encoding.name} cannot represent`,
    oldStringPreview: oldStringExcerpt(target.edits[editIndex].old_string),
  }));
  const lead = (): LeadFailure => {
    const inNewString = leadEdit === -1 ? where : LineIndex.of(edits[leadEdit].newString).position(edits[leadEdit].newString.indexOf(character));
    const which = leadEdit === -1 ? 'The edits put' : `Edit ${leadEdit + 1} of ${edits.length} puts`;
    return {
      code: 'UNREPRESENTABLE_CHARACTER',
      ...(leadEdit !== -1 ? { editIndex: leadEdit } : {}),
      message: `${which} ${describe(character)} at line ${where.line}, column ${where.column} of ${file.displayPath}, which is ${encoding.name} text and cannot represent it; nothing was written`,
      hints: [`The file stays ${encoding.name}: write ${codePoint(character)} another way, or leave it out`],
      context: {
        unrepresentable: {
          character, code_point: codePoint(character), encoding: encoding.name,
          line: where.line, column: where.column, new_string_line: inNewString.line, new_string_column: inNewString.column,
        },
      },
    };
  };
  return { fileIndex: target.fileIndex, filePath: file.path, displayPath: file.displayPath, editCount: edits.length, problems, lead, text: file.original.text };
}

/** The whole character at `offset`: both halves of a surrogate pair. */
function characterAt(text: string, offset: number): string {
  return String.fromCodePoint(text.codePointAt(offset) ?? 0xfffd);
}

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
