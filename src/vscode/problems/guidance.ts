/**
 * What a person in the editor can do about each code, in one line. The envelope's
 * recovery_hints speak to the agent that sent the request (they name envelope fields
 * such as context.snippet); the editor shows these instead, and the hints stay one
 * quick fix away (Copy hints). Every code has a line: the type says so.
 */
import * as vscode from 'vscode';
import { type DiagnosisKind, type ErrorCode, TOOL_LIST } from '../../core/index';

/** The line for a failure; a diagnosis that changes what to do (nothing left to fix) has its own. */
export function guidanceFor(code: ErrorCode, diagnosis?: DiagnosisKind): string {
  if (diagnosis === 'ALREADY_APPLIED') {
    return vscode.l10n.t('The file already holds this edit\'s new_string: check the file, and remove the edit from the request if it was applied earlier.');
  }
  return guidanceForCode(code);
}

function guidanceForCode(code: ErrorCode): string {
  const guidance: Record<ErrorCode, string> = {
    VALIDATION_FAILED: vscode.l10n.t('Fix the fields marked in the request, then apply it again.'),
    RELATIVE_PATH: vscode.l10n.t('Give file_path as an absolute path, or relative to the one open workspace folder.'),
    PATH_TRAVERSAL: vscode.l10n.t('Write file_path without ".." segments.'),
    EMPTY_EDITS: vscode.l10n.t('Add at least one edit to the request.'),
    EMPTY_OLD_STRING: vscode.l10n.t('Give old_string the text to replace; to insert, include a neighbouring line in both strings.'),
    NO_OP_EDIT: vscode.l10n.t('Remove the edit, or make new_string differ from old_string.'),
    DUPLICATE_OLD_STRING: vscode.l10n.t('Merge the two edits, or add neighbouring lines so each old_string differs.'),
    MATCH_NOT_FOUND: vscode.l10n.t('Compare old_string with the file in a diff (Ctrl+.), fix old_string in the request, then apply it again.'),
    AMBIGUOUS_MATCH: vscode.l10n.t('Add neighbouring lines to old_string, or use Ctrl+. to peek every match or retry with replace_all.'),
    UNREPRESENTABLE_CHARACTER: vscode.l10n.t('The file\'s encoding cannot hold a character of new_string: write it another way, or save the file in an encoding that holds it (Save with Encoding) and apply the request again.'),
    SYNTAX_REGRESSION: vscode.l10n.t('The edit would break this file\'s syntax: hover to see the lines as they would be written, fix new_string, or use Ctrl+. to apply it anyway.'),
    FILE_NOT_FOUND: vscode.l10n.t('Check file_path for a typo: no file exists there.'),
    FILE_EXISTS: vscode.l10n.t('A file already exists at this path; update it, or choose a free path.'),
    IS_DIRECTORY: vscode.l10n.t('Point file_path at a file inside this folder.'),
    INVALID_ENCODING: vscode.l10n.t('This file is binary, or text in an encoding VS Code was not told: set files.encoding for it (or reopen it with the right encoding) and apply the request again.'),
    FILE_TOO_LARGE: vscode.l10n.t('Raise the setting multiEdit.maxFileSizeMB, or edit this file another way.'),
    PERMISSION_DENIED: vscode.l10n.t('Change the file\'s permissions to let it be written.'),
    READ_ONLY_FS: vscode.l10n.t('The file is on a read-only file system.'),
    DISK_FULL: vscode.l10n.t('Free some disk space, then apply the request again.'),
    SYMLINK_LOOP: vscode.l10n.t('The path goes through a loop of symbolic links; give the real path.'),
    NOT_REGULAR_FILE: vscode.l10n.t('Only regular files can be edited, not pipes, sockets or devices.'),
    WRITE_FAILED: vscode.l10n.t('Writing failed and was undone; see the Multi-Edit output for details.'),
    STALE_CONTENT: vscode.l10n.t('The file changed while the request ran; apply it again.'),
    FILE_BUSY: vscode.l10n.t('Another program holds the file; apply the request again in a moment.'),
    OUTSIDE_WORKSPACE: vscode.l10n.t('The file is outside the workspace: allow it when asked, or in the setting multiEdit.allowOutsideWorkspace.'),
    FORBIDDEN_PATH: vscode.l10n.t('The file matches multiEdit.protectedGlobs and is never edited.'),
    SAVE_REDIRECTED: vscode.l10n.t('The edit is in the editor, but its save went through a path that led elsewhere: check the folder for links, then save again.'),
    USER_DENIED: vscode.l10n.t('You declined the request; nothing was changed.'),
    CANCELLED: vscode.l10n.t('You cancelled the request; nothing was changed.'),
    UNKNOWN_TOOL: vscode.l10n.t('Use one of the tools {0}.', TOOL_LIST),
    INTERNAL_ERROR: vscode.l10n.t('Multi-Edit failed; nothing was changed. The Multi-Edit output has the details.'),
  };
  return guidance[code];
}
