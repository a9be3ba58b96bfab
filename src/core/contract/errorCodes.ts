/**
 * The one table of error codes. Every envelope on every path is built from it,
 * so a code's category, retryability, hints and next action never disagree.
 */
import { TOOL_LIST } from './toolNames';

export type ErrorCategory = 'input' | 'match' | 'scope' | 'filesystem' | 'transient' | 'internal';

export type NextAction = 'fix_and_resubmit' | 'reread_and_retry' | 'retry_later' | 'ask_user' | 'stop';

export interface ErrorCodeInfo {
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  readonly nextAction: NextAction;
  /** General guidance only: never a rewritten old_string. */
  readonly hints: readonly string[];
  /** One line for docs and the Problems panel. */
  readonly summary: string;
  /** The user chose this outcome (cancelled it, declined it): every surface shows it as a choice, not a problem. */
  readonly userChose: boolean;
}

const REREAD = 'Re-read the file to get its current text, then copy old_string from it exactly';

export const ERROR_CODES = {
  VALIDATION_FAILED: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The request does not match the schema.',
    hints: ['Fix the field named in the message and resubmit', 'Each edit needs old_string and new_string as strings'],
  },
  RELATIVE_PATH: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The path is not absolute and cannot be resolved against a single workspace folder.',
    hints: ['Pass an absolute file_path'],
  },
  PATH_TRAVERSAL: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The path contains a ".." segment.',
    hints: ['Pass the absolute path without ".." segments'],
  },
  EMPTY_EDITS: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The request contains no edits.',
    hints: ['Add at least one edit (or one file with edits) to the request'],
  },
  EMPTY_OLD_STRING: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'An edit has an empty old_string.',
    hints: ['Give old_string the exact text to replace; to insert, include a neighbouring line in both old_string and new_string'],
  },
  NO_OP_EDIT: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'An edit has old_string equal to new_string.',
    hints: ['Remove the edit, or change new_string to the intended text'],
  },
  DUPLICATE_OLD_STRING: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The same old_string appears in two edits of one file.',
    hints: ['Merge the duplicate edits, or use replace_all on one edit', 'Add surrounding lines to make each old_string distinct'],
  },
  MATCH_NOT_FOUND: {
    category: 'match', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'old_string does not occur in the text as the earlier edits left it.',
    hints: [REREAD, 'Check whitespace, indentation and line breaks against context.snippet'],
  },
  AMBIGUOUS_MATCH: {
    category: 'match', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'old_string occurs more than once and replace_all is false.',
    hints: [REREAD, 'Add surrounding lines to old_string so that it occurs exactly once', 'Set replace_all to true to replace every occurrence'],
  },
  UNREPRESENTABLE_CHARACTER: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'A new_string holds a character the file\'s encoding cannot represent; nothing was written.',
    hints: ['Write the character another way the file\'s encoding can hold (an escape of the file\'s language, or a plain equivalent), or leave it out, then resubmit'],
  },
  SYNTAX_REGRESSION: {
    category: 'input', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The edits would leave the file with a syntax error it did not have; nothing was written.',
    hints: ['Fix new_string so the file still parses, then resubmit; errors the file already had do not count'],
  },
  FILE_NOT_FOUND: {
    category: 'filesystem', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'No file exists at the path.',
    hints: ['Check the path for typos; list the directory to find the right file'],
  },
  FILE_EXISTS: {
    category: 'filesystem', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'A file to create, or the destination of a move, already exists.',
    hints: ['Read the existing file and update it instead, or choose a path that is free'],
  },
  IS_DIRECTORY: {
    category: 'filesystem', retryable: true, nextAction: 'fix_and_resubmit', userChose: false,
    summary: 'The path is a directory, not a file.',
    hints: ['Pass the path of a file inside the directory'],
  },
  INVALID_ENCODING: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'The file is binary, or text in an encoding that was not named and cannot be told.',
    hints: ['A binary file cannot be edited with string edits; for text in another encoding, pass its name in the file\'s "encoding" field (the CLI and the MCP server also take --encoding) and resubmit'],
  },
  FILE_TOO_LARGE: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'The file is larger than the configured size limit.',
    hints: ['Raise the size limit (the CLI\'s apply, undo and mcp take --max-file-size MB; VS Code has the setting multiEdit.maxFileSizeMB), or edit the file another way'],
  },
  PERMISSION_DENIED: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'The file cannot be read or written with the current permissions.',
    hints: ['Ask the user to change the file permissions'],
  },
  READ_ONLY_FS: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'The file lives on a read-only file system.',
    hints: ['The file cannot be changed here'],
  },
  DISK_FULL: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'There is no space left on the device.',
    hints: ['Ask the user to free disk space'],
  },
  SYMLINK_LOOP: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'The path goes through a loop of symbolic links.',
    hints: ['Resolve the symbolic links and pass the real path'],
  },
  NOT_REGULAR_FILE: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'The path is not a regular file: a FIFO, socket, device or special file.',
    hints: ['Only regular files can be edited; pass the path of a regular file'],
  },
  WRITE_FAILED: {
    category: 'filesystem', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'A write failed; every file already written was rolled back.',
    hints: ['Report the failure to the user; the message says whether any file could not be put back'],
  },
  STALE_CONTENT: {
    category: 'transient', retryable: true, nextAction: 'reread_and_retry', userChose: false,
    summary: 'The file changed between planning and commit.',
    hints: [REREAD, 'Resubmit the request against the current text'],
  },
  FILE_BUSY: {
    category: 'transient', retryable: true, nextAction: 'retry_later', userChose: false,
    summary: 'The file stayed busy through every internal retry.',
    hints: ['Wait a moment, then resubmit the same request'],
  },
  OUTSIDE_WORKSPACE: {
    category: 'scope', retryable: false, nextAction: 'ask_user', userChose: false,
    summary: 'The target is outside every workspace folder.',
    hints: ['Ask the user to open the folder or allow edits outside the workspace'],
  },
  FORBIDDEN_PATH: {
    category: 'scope', retryable: false, nextAction: 'ask_user', userChose: false,
    summary: 'The target matches a protected glob.',
    hints: ['Ask the user whether this file may be edited: it matches a protected glob'],
  },
  SAVE_REDIRECTED: {
    category: 'scope', retryable: false, nextAction: 'ask_user', userChose: false,
    summary: 'The editor saved the edit through a path that no longer led to the file planned.',
    hints: [
      'Tell the user: the edit is in the editor, but its save was written through a link that a directory was swapped for while it saved, so a file outside the planned folder may hold the new text',
      'Do not retry until the user has checked the folder for links and saved the file again',
    ],
  },
  USER_DENIED: {
    category: 'scope', retryable: false, nextAction: 'ask_user', userChose: true,
    summary: 'The user rejected the confirmation or the preview.',
    hints: ['Ask the user what to change before trying again'],
  },
  CANCELLED: {
    category: 'internal', retryable: false, nextAction: 'stop', userChose: true,
    summary: 'The request was cancelled.',
    hints: ['Do not retry on your own; the user cancelled'],
  },
  UNKNOWN_TOOL: {
    category: 'internal', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'No tool with that name exists.',
    hints: [`Call ${TOOL_LIST}`],
  },
  INTERNAL_ERROR: {
    category: 'internal', retryable: false, nextAction: 'stop', userChose: false,
    summary: 'An unexpected internal error occurred.',
    hints: ['No file was changed; report the failure to the user'],
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

export function codeInfo(code: ErrorCode): ErrorCodeInfo {
  return ERROR_CODES[code];
}

/** The project's documentation folder, where every page the product links to lives. */
export const DOCS_URL = 'https://github.com/multi-edit/multi-edit/blob/main/docs';
export const ERRORS_DOC_URL = `${DOCS_URL}/errors.md`;

/** Where a diagnostic's code links: the code's anchor in docs/errors.md. */
export function errorDocLink(code: ErrorCode): string {
  return `${ERRORS_DOC_URL}#${code.toLowerCase()}`;
}
