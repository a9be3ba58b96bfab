/** The CLI's usage line and its --help text. */
import { ERRORS_DOC_URL } from '../../core/index';

export const USAGE = `usage: multi-edit apply [--dry-run] [--format json|text] [--max-file-size MB] [--inside-indentation warn|refuseMultiline|refuse]
                      [--inside-token warn|refuseSuspicious|refuse] [--syntax-check refuse|warn|off] [--encoding NAME] <request.json | ->
       multi-edit patch [--dry-run] [--format json|text] [--root DIR] [--syntax-check refuse|warn|off] [--encoding NAME] <PATCHFILE | ->
       multi-edit mcp [--root DIR]... [--inside-token warn|refuseSuspicious|refuse] [--syntax-check refuse|warn|off] [--encoding NAME]`;

export const HELP_TEXT = `multi-edit: apply exact string edits to files, all or nothing.

${USAGE}
       multi-edit --help | -h
       multi-edit --version

Commands:
  apply <request.json>   Apply the request in the file.
  apply -                Read the request from standard input.
  patch <PATCHFILE>      Apply a patch: a Codex apply_patch patch ("*** Begin Patch"),
                         a unified diff (git diff, diff -u) or SEARCH/REPLACE blocks,
                         told apart by the text. It may update, add, delete and move
                         files; all of it applies, or nothing does. Its paths are
                         relative to --root (default: the current directory) and
                         must stay inside it. "patch -" reads standard input.
  mcp                    Serve the tools multi_edit, multi_edit_files and
                         multi_edit_patch to an MCP client (Claude Code, Codex,
                         Cursor, VS Code...) on stdio,
                         until standard input closes. Logs go to stderr.

Options:
  --dry-run              Check every edit and print the unified diff; write nothing.
                         (Same as "dry_run": true in the request.)
  --format json          Print exactly one JSON response on stdout (default).
  --format text          Print a human summary: "ok ..." on success, or
                         "error code=... file=... edit=... msg=..." followed by the
                         diagnosis, the recovery hints and the file's text around the failure.
                         Text counts edits from 1 (edit=1 is the first); the JSON's
                         edit_index and file_index count from 0.
  --root DIR             (patch) The folder the patch's paths are relative to.
                         (mcp) A folder the tools may edit in; repeat for several.
                         Without it: the roots the client lists, or else the
                         current directory. Client roots can narrow --root, never
                         widen it. .git, .hg, .svn and .env* files are refused.
  --inside-indentation P An old_string starting with spaces or tabs that matches inside
                         a line's indentation: refuseMultiline (default) refuses it
                         when new_string spans lines and warns otherwise; warn
                         applies it with a MATCH_INSIDE_INDENTATION warning; refuse
                         always refuses it.
  --inside-token P       (apply, mcp) An old_string whose first or last character falls
                         inside a word or number of the file: refuseSuspicious
                         (default) refuses it when new_string does not continue the
                         token there and warns otherwise; warn applies it with a
                         MATCH_INSIDE_TOKEN warning; refuse always refuses it.
                         replace_all edits are only warned.
  --max-file-size MB     Refuse files larger than MB megabytes (FILE_TOO_LARGE);
                         default 32.
  --encoding NAME        The encoding of a file that has no byte order mark and is
                         not valid UTF-8 (windows-1252, iso-8859-1, shift_jis, gbk,
                         euc-kr, koi8-r...), unless the request's "encoding" names
                         the file's own. Every byte outside the edits is kept.
  --syntax-check P       (apply and mcp) An edit that leaves a file with a syntax
                         error it did not have: refuse (default) refuses the whole
                         request with SYNTAX_REGRESSION and writes nothing; warn
                         applies it with a SYNTAX_REGRESSION warning; off parses
                         nothing. Checked: TypeScript, JavaScript, Python, Go, Rust,
                         Java, C#, C, C++, Ruby, PHP, shell, CSS and JSON files.
  -h, --help             Show this help.
  --version              Print the version.

Requests (JSON). A request with a "files" key is multi_edit_files, otherwise multi_edit.
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

Exit codes:
  0  success (with --dry-run: every edit would apply)
  1  an error envelope was printed (an edit failed, a file could not be read or
     written, or the JSON does not fit the request schema: VALIDATION_FAILED)
  2  usage error, unreadable request file, or a request that is not JSON;
     the message goes to stderr and nothing is printed on stdout
  70 an internal error (a bug), told in one line on stderr
  When stdout is closed or full, the code is still 0 or 1 as above (it says
  whether the edits landed), and one line on stderr says the report was lost.
  Ctrl+C during a request undoes what was written and exits 1 (CANCELLED).

Example (run in /home/me/shop; paths under the current directory print relative):
  $ cat rename.json
  { "file_path": "/home/me/shop/src/cart.ts",
    "edits": [ { "old_string": "export function total(", "new_string": "export function cartTotal(" },
               { "old_string": "formatPrice(total(lines))", "new_string": "formatPrice(cartTotal(lines))" } ] }
  $ multi-edit apply --format text rename.json
  ok applied 2 edits (2 replacements) to src/cart.ts
  $ multi-edit apply --format text rename.json
  error code=MATCH_NOT_FOUND file=src/cart.ts edit=0 msg="Edit 1 of 2 failed: ..."
  (then the diagnosis, here ALREADY_APPLIED, the hints, and the file's lines around the closest match)

Error codes, their meaning and what to do: ${ERRORS_DOC_URL}
`;
