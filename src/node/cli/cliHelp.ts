/**
 * The CLI's usage lines and its help texts, built from one table of options: each option names the
 * commands that take it, so the global help marks it, each command's help lists only its own, and
 * each synopsis shows exactly what `parseArgs` accepts (a unit test holds the table to the parser
 * and to the synopses in docs/).
 */
import { DOCS_URL, ERRORS_DOC_URL } from '../../core/index';

export type CommandName = 'apply' | 'patch' | 'mcp' | 'undo' | 'history';

export const COMMAND_NAMES: readonly CommandName[] = ['apply', 'patch', 'mcp', 'undo', 'history'];

export interface CliOption {
  readonly flag: string;
  /** The value as the synopsis shows it (`json|text`, `DIR`); none for a switch. */
  readonly value?: string;
  /** The value's name in the option lists, when the synopsis spells out its choices. */
  readonly valueName?: string;
  readonly commands: readonly CommandName[];
  /** Given more than once, it adds up (`--root DIR...`). */
  readonly repeatable?: boolean;
  /** What it does, as one paragraph; wrapped when printed. */
  readonly help: string;
}

const SYNTAX_LANGUAGES = 'TypeScript, JavaScript, Python, Go, Rust, Java, C#, C, C++, Ruby, PHP, shell, CSS and JSON';

/** Every option of every command, in synopsis order. A new option is a new row. */
export const CLI_OPTIONS: readonly CliOption[] = [
  {
    flag: '--dry-run', commands: ['apply', 'patch', 'undo'],
    help: 'Check everything and print the unified diff of each file; write nothing. (Same as "dry_run": true in a request.)',
  },
  {
    flag: '--full-diff', commands: ['patch'],
    help: 'With --dry-run: print every line of a file the patch deletes. Without it, a deleted file\'s diff is one line, '
      + '"delete src/old.ts (3,683 lines; the full diff shows them)". (Same as "full_diff": true in a multi_edit_patch call.)',
  },
  {
    flag: '--format', value: 'json|text', commands: ['apply', 'patch', 'undo', 'history'],
    help: 'json (default): print exactly one JSON response on stdout. text: print a human summary, "ok ..." on success, or '
      + '"error code=... file=... edit=... msg=..." followed by the diagnosis, the recovery hints and the file\'s text around '
      + 'the failure. Text counts edits from 1 (edit=1 is the first); the JSON\'s edit_index and file_index count from 0.',
  },
  {
    flag: '--root', value: 'DIR', commands: ['patch'],
    help: 'The folder the patch\'s paths are relative to (default: the current directory); every path must stay inside it.',
  },
  {
    flag: '--root', value: 'DIR', commands: ['mcp'], repeatable: true,
    help: 'A folder the tools may edit in; repeat it for several. Without it: the roots the client lists, or else the current '
      + 'directory. Client roots can narrow --root, never widen it.',
  },
  {
    flag: '--root', value: 'DIR', commands: ['undo', 'history'],
    help: 'The root whose history to read: the --root a patch or the server was given, or the folder apply ran in '
      + '(default: the current directory).',
  },
  {
    flag: '--limit', value: 'N', commands: ['history'],
    help: 'List at most N requests, newest first (default 20).',
  },
  {
    flag: '--no-history', commands: ['apply', 'patch', 'mcp'],
    help: 'Keep no record of the requests applied (they cannot be undone with multi-edit undo). The environment variable '
      + 'MULTI_EDIT_NO_HISTORY=1 does the same.',
  },
  {
    flag: '--max-file-size', value: 'MB', commands: ['apply', 'mcp'],
    help: 'Refuse files larger than MB megabytes (FILE_TOO_LARGE); default 32. For mcp, every tool\'s limit, multi_edit_undo\'s too.',
  },
  {
    flag: '--max-file-size', value: 'MB', commands: ['undo'],
    help: 'Read files up to MB megabytes (default 32); past it the undo is FILE_TOO_LARGE and nothing is written. A file is '
      + 'always read up to the size the request left it at, when its record keeps that size (UTF-8 and UTF-16 files), so '
      + 'this is needed only for an older record or another encoding (a file that grew past that size has changed: STALE_CONTENT).',
  },
  {
    flag: '--encoding', value: 'NAME', commands: ['apply', 'patch', 'mcp'],
    help: 'The encoding of a file that has no byte order mark and is not valid UTF-8, or is plain ASCII (windows-1252, iso-8859-1, shift_jis, '
      + 'gbk, euc-kr, koi8-r...), unless the request\'s "encoding" names the file\'s own. Every byte outside the edits is kept.',
  },
  {
    flag: '--inside-indentation', value: 'warn|refuseMultiline|refuse', valueName: 'P', commands: ['apply'],
    help: 'An old_string starting with spaces or tabs that matches inside a line\'s indentation: refuseMultiline (default) '
      + 'refuses it when new_string spans lines and warns otherwise; warn applies it with a MATCH_INSIDE_INDENTATION '
      + 'warning; refuse always refuses it.',
  },
  {
    flag: '--inside-token', value: 'warn|refuseSuspicious|refuse', valueName: 'P', commands: ['apply', 'mcp'],
    help: 'An old_string whose first or last character falls inside a word or number of the file: refuseSuspicious '
      + '(default) refuses it when new_string does not continue the token there and warns otherwise; warn applies it with '
      + 'a MATCH_INSIDE_TOKEN warning; refuse always refuses it. replace_all edits are only warned.',
  },
  {
    flag: '--allow-protected', value: 'GLOB', commands: ['apply', 'patch', 'mcp'], repeatable: true,
    help: 'Every command refuses (FORBIDDEN_PATH) files under .git, .hg and .svn and .env* files, by name and by where a link '
      + 'leads. A user who means to edit one passes a glob that matches it, e.g. --allow-protected \'**/.env\'; repeat it for '
      + 'several. Globs match absolute paths, and paths relative to a root.',
  },
  {
    flag: '--max-time', value: 'SECONDS', commands: ['apply', 'patch', 'mcp'],
    help: 'Stop planning a request (for mcp: each call) after SECONDS: the answer is CANCELLED and nothing is written. '
      + 'Default: no limit.',
  },
  {
    flag: '--syntax-check', value: 'refuse|warn|off', valueName: 'P', commands: ['apply', 'patch', 'mcp'],
    help: 'An edit that leaves a file with a syntax error it did not have: refuse (default) refuses the whole request with '
      + 'SYNTAX_REGRESSION and writes nothing; warn applies it with a SYNTAX_REGRESSION warning; off parses nothing. '
      + `Checked: ${SYNTAX_LANGUAGES} files.`,
  },
];

interface CommandHelp {
  /** The operand, as the synopsis shows it; none when the command takes none. */
  readonly operand?: string;
  /** One line per form, for the list of commands in the global help. */
  readonly forms: ReadonlyArray<readonly [string, string]>;
  /** What the command does, for its own help. */
  readonly about: string;
  /** Sections of its own help after the options: input, exit codes, an example. */
  readonly sections: string;
}

const WIDTH = 100;
/** Where an option's text starts in a list. */
const HELP_COLUMN = 25;

/** `words` joined into lines of at most `width` characters, the first after `firstIndent`, the rest after `indent`. */
function wrapWords(words: readonly string[], indent: number, firstIndent = indent): string {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const room = WIDTH - (lines.length === 0 ? firstIndent : indent);
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

const wrap = (text: string, indent: number): string => wrapWords(text.split(/\s+/), indent);

/** A list entry: the term in the first column, its text wrapped in the second. */
function entry(term: string, text: string): string {
  const head = `  ${term}`;
  return head.length <= HELP_COLUMN - 1
    ? `${head.padEnd(HELP_COLUMN)}${wrap(text, HELP_COLUMN)}`
    : `${head}\n${' '.repeat(HELP_COLUMN)}${wrap(text, HELP_COLUMN)}`;
}

export const optionsOf = (command: CommandName): readonly CliOption[] => CLI_OPTIONS.filter((option) => option.commands.includes(command));

/** The synopsis after `multi-edit <command>`: each option, then the operand. */
function synopsisWords(command: CommandName): string[] {
  const options = optionsOf(command).map((option) => `[${option.flag}${option.value ? ` ${option.value}` : ''}]${option.repeatable ? '...' : ''}`);
  const operand = COMMANDS[command].operand;
  return [...options, ...(operand ? [operand] : [])];
}

/** `multi-edit apply [--dry-run] ... <request.json | ->`, on one line. */
export const synopsis = (command: CommandName): string => ['multi-edit', command, ...synopsisWords(command)].join(' ');

/** A synopsis after `prefix`, wrapped between options, its later lines under its first option. */
function usageLine(prefix: string, command: CommandName): string {
  const head = `${prefix}multi-edit ${command} `;
  return `${head}${wrapWords(synopsisWords(command), head.length)}`;
}

const EXIT_CODES = `Exit codes:
  0  success (with --dry-run: every edit would apply)
  1  an error envelope was printed (an edit failed, a file could not be read or
     written, or the input does not fit its schema: VALIDATION_FAILED)
  2  usage error, an unreadable input file, or a request that is not JSON;
     the message goes to stderr and nothing is printed on stdout
  70 an internal error (a bug), told in one line on stderr
  When stdout is closed or full, the code is still 0 or 1 as above (it says
  whether the edits landed), and one line on stderr says the report was lost.
  Ctrl+C during a request undoes what was written and exits 1 (CANCELLED).`;

const HISTORY_SECTION = `The history. Every applied request gets a request_id (in its JSON answer). Unless
--no-history or MULTI_EDIT_NO_HISTORY=1, apply, patch and mcp keep what undoing it
needs: each changed file's text before, and a digest of it after, in the user's state
folder (XDG_STATE_HOME or ~/.local/state, %LOCALAPPDATA%, ~/Library/Application
Support; MULTI_EDIT_HISTORY_DIR moves it), one history per root, owner-only. At most
100 requests and 256 MB per root (MULTI_EDIT_HISTORY_MAX_REQUESTS and
MULTI_EDIT_HISTORY_MAX_BYTES); the oldest go first. Protected files are never kept.`;

const COMMANDS: Readonly<Record<CommandName, CommandHelp>> = {
  apply: {
    operand: '<request.json | ->',
    forms: [
      ['apply <request.json>', 'Apply the request in the file.'],
      ['apply -', 'Read the request from standard input.'],
    ],
    about: 'Apply a request of exact string edits (JSON, the shapes below) to files on disk: every edit of every file, or none.',
    sections: `Requests (JSON). A request with a "files" key is multi_edit_files, otherwise multi_edit.
  multi_edit:
    { "file_path": "/abs/path/file.ts",
      "edits": [ { "old_string": "...", "new_string": "...", "replace_all": false } ],
      "dry_run": false, "include_diff": false }
  multi_edit_files:
    { "files": [ { "file_path": "/abs/a.ts", "edits": [ ... ] },
                 { "file_path": "/abs/b.ts", "edits": [ ... ] } ],
      "dry_run": false, "include_diff": false }

  - Edits apply in order, each to the text as the earlier edits left it.
  - old_string must occur exactly once, unless replace_all is true.
  - new_string is inserted literally ($& and $1 are not patterns).
  - Either every edit of every file is applied, or no file changes.
  - Line endings, a BOM, the final newline and the file mode are kept.
  - Paths must be absolute; there is no workspace, so a relative path is
    RELATIVE_PATH, and any ".." segment is PATH_TRAVERSAL.
  - Files are written atomically (temp file in the same directory, then rename);
    a symbolic link is kept, and the file it points to is edited.

${EXIT_CODES}

Example (run in /home/me/shop; paths under the current directory print relative):
  $ cat rename.json
  { "file_path": "/home/me/shop/src/cart.ts",
    "edits": [ { "old_string": "export function total(", "new_string": "export function cartTotal(" },
               { "old_string": "formatPrice(total(lines))", "new_string": "formatPrice(cartTotal(lines))" } ] }
  $ multi-edit apply --format text rename.json
  ok applied 2 edits (2 replacements) to src/cart.ts
  $ multi-edit apply --format text rename.json
  error code=MATCH_NOT_FOUND file=src/cart.ts edit=1 msg="Edit 1 of 2 failed: old_string was not found in src/cart.ts"
  (then the diagnosis, here ALREADY_APPLIED, the hints, and the file's lines around the closest match)`,
  },
  patch: {
    operand: '<PATCHFILE | ->',
    forms: [
      ['patch <PATCHFILE>', 'Apply a patch (Codex apply_patch, unified diff or SEARCH/REPLACE blocks).'],
      ['patch -', 'Read the patch from standard input.'],
    ],
    about: 'Apply a patch: a Codex apply_patch patch ("*** Begin Patch"), a unified diff (git diff, diff -u) or SEARCH/REPLACE '
      + 'blocks, told apart by the text. It may update, add, delete and move files; all of it applies, or nothing does. '
      + 'Its paths are relative to --root (default: the current directory) and must stay inside it.',
    sections: `${EXIT_CODES}

Example (run in /home/me/shop):
  $ cat rename.patch
  *** Begin Patch
  *** Update File: src/cart.ts
  @@
  -export function total(lines: readonly CartLine[]): number {
  +export function cartTotal(lines: readonly CartLine[]): number {
  *** End Patch
  $ multi-edit patch --format text rename.patch
  ok applied 1 hunk to 1 file
    update src/cart.ts, 1 hunk

The formats, and how each hunk is placed: ${DOCS_URL}/patch.md`,
  },
  mcp: {
    forms: [
      ['mcp', 'Serve the tools to an MCP client on stdio.'],
    ],
    about: 'Serve the tools multi_edit, multi_edit_files and multi_edit_patch to an MCP client (Claude Code, Codex, Cursor, '
      + 'VS Code...) on stdio, until standard input closes. Standard output carries the protocol only; logs go to stderr.',
    sections: `Exit codes:
  0  standard input closed, or a signal stopped the server
  2  a usage error, or a --root that is not a directory (told on stderr)

Registering it, and the roots: ${DOCS_URL}/mcp.md`,
  },
  undo: {
    operand: '[REQUEST_ID]',
    forms: [
      ['undo [REQUEST_ID]', 'Take back an applied request (default: the latest not yet undone).'],
    ],
    about: 'Take back an applied request of this root\'s history, every file or none: updates get their text back, added '
      + 'files are removed, deleted ones re-created, moved ones moved back. When a file changed since, nothing changes and '
      + 'the answer is STALE_CONTENT, naming each such file and the later request that changed it: undo that one first. '
      + 'When a file is larger than the undo may read, nothing changes and the answer is FILE_TOO_LARGE: pass --max-file-size. '
      + 'A file it cannot read for another reason gives the read\'s own code (PERMISSION_DENIED, FILE_BUSY).',
    sections: `${HISTORY_SECTION}

${EXIT_CODES}

Example (run in /home/me/shop):
  $ multi-edit history --format text
  20261128T141502113-k3x9qa  2026-11-28 14:15:02  cli  src/cart.ts updated
  $ multi-edit undo --format text
  ok undid request 20261128T141502113-k3x9qa (src/cart.ts updated): 1 file restored`,
  },
  history: {
    forms: [
      ['history', 'List the recent applied requests of this root.'],
    ],
    about: 'List the recent applied requests of this root\'s history, newest first: id, time, surface, and what each did.',
    sections: `${HISTORY_SECTION}

Exit codes:
  0  the list was printed
  2  a usage error, or a --root that is not a directory (told on stderr)`,
  },
};


const HELP_FLAGS = [
  entry('-h, --help', 'Show this help; after a command ("multi-edit patch --help"), that command\'s help.'),
  entry('--version', 'Print the version.'),
].join('\n');

const optionTerm = (option: CliOption): string => `${option.flag}${option.value ? ` ${option.valueName ?? option.value}` : ''}`;

/** `multi-edit --help`: every command, every option marked with the commands that take it, the exit codes. */
export function globalHelp(): string {
  const usage = COMMAND_NAMES.map((command, index) => usageLine(index === 0 ? 'usage: ' : '       ', command));
  const forms = COMMAND_NAMES.flatMap((command) => COMMANDS[command].forms.map(([form, text]) => entry(form, text)));
  const options = CLI_OPTIONS.map((option) => entry(optionTerm(option), `(${option.commands.join(', ')}) ${option.help}`));
  return `multi-edit: apply exact string edits to files, all or nothing.

${usage.join('\n')}
       multi-edit <command> --help
       multi-edit --help | -h
       multi-edit --version

Commands:
${forms.join('\n')}

Options (each marked with the commands that take it):
${options.join('\n')}
${HELP_FLAGS}

${EXIT_CODES}

Run "multi-edit <command> --help" for a command's input and an example.
Error codes, their meaning and what to do: ${ERRORS_DOC_URL}
`;
}

/** `multi-edit <command> --help`: its synopsis, what it does, its options only, its input and an example. */
export function commandHelp(command: CommandName): string {
  const { about, sections } = COMMANDS[command];
  const options = optionsOf(command).map((option) => entry(optionTerm(option), option.help));
  return `${usageLine('usage: ', command)}

${wrap(about, 0)}

Options:
${options.join('\n')}
${entry('-h, --help', 'Show this help.')}

${sections}

Error codes, their meaning and what to do: ${ERRORS_DOC_URL}
`;
}

/** The usage lines a usage error prints: the command's own, or every command's. */
export function usageOf(command: CommandName | undefined): string {
  return command === undefined
    ? COMMAND_NAMES.map((name, index) => usageLine(index === 0 ? 'usage: ' : '       ', name)).join('\n')
    : usageLine('usage: ', command);
}
