/**
 * Output hygiene: what no response may reveal about the code that made it. A stack
 * frame, a module or build path of the extension, raw Node errno text, or a control
 * character in product text (message, hints, summary, diagnosis detail, warnings)
 * is a leak. Pure and free of mocha and vscode, so the unit run, the CLI tests and
 * the extension-host suite check responses by the same rules.
 */
import * as path from 'node:path';

export interface Leak {
  /** Where in the response, e.g. "edit_status[1].message". */
  readonly field: string;
  readonly rule: string;
  readonly excerpt: string;
}

/**
 * Fields that carry file text or the caller's old_string verbatim: whatever the
 * file holds (a stack trace in a log file, a tab, an ESC) may appear there. `text` is
 * a file line's (match_locations' distinct_above and distinct_below); `file_has` and
 * `old_string_has` are the two sides of a listed difference.
 */
const CONTENT_FIELDS = new Set(['snippet', 'diff', 'old_string_preview', 'text', 'file_has', 'old_string_has']);

/**
 * Fields that echo the path the caller sent, byte for byte, so the caller can match
 * it: they may hold any character the caller put there, but must not reveal our own.
 */
const ECHOED_PATH_FIELDS = new Set(['file_path', 'rolled_back']);

/** Compiled to out/test/shared, so the project root is three levels up. */
const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const BUILD_DIRS = new RegExp(`${escapeForRegExp(PROJECT_ROOT)}[\\\\/](?:out|dist)[\\\\/]`);

interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
  /** Whether echoed paths are held to it too (a caller's path may hold any character). */
  readonly inEchoedPaths: boolean;
}

const RULES: readonly Rule[] = [
  { name: 'stack frame', pattern: /\bat [^\s()]+ \([^()]*:\d+:\d+\)|\bat (?:file:\/\/)?\/[^\s]*:\d+:\d+| {4}at /, inEchoedPaths: true },
  { name: 'node_modules path', pattern: /node_modules/, inEchoedPaths: true },
  { name: 'build path of the extension', pattern: BUILD_DIRS, inEchoedPaths: true },
  { name: 'script location', pattern: /\.[cm]?js:\d+/, inEchoedPaths: true },
  {
    name: 'raw errno text',
    pattern: /\bE(?:NOENT|ACCES|PERM|NOSPC|BUSY|AGAIN|ROFS|LOOP|ISDIR|NOTDIR|EXIST|MFILE|NFILE|XDEV|IO|NAMETOOLONG|NOTEMPTY|TIMEDOUT|INVAL)[:,]|\berrno\b|\bsyscall\b/,
    inEchoedPaths: true,
  },
  // C0 and C1 controls and DEL, except tab and line breaks.
  { name: 'control character', pattern: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/, inEchoedPaths: false },
];

/** Every leak in a response (a parsed envelope or success response), in field order. */
export function hygieneLeaks(response: unknown): Leak[] {
  const leaks: Leak[] = [];
  const visit = (value: unknown, field: string, key: string | undefined): void => {
    if (typeof value === 'string') {
      if (key === undefined || !CONTENT_FIELDS.has(key)) {
        const echoedPath = key !== undefined && ECHOED_PATH_FIELDS.has(key);
        for (const rule of RULES.filter((candidate) => !echoedPath || candidate.inEchoedPaths)) {
          const found = rule.pattern.exec(value);
          if (found) {
            leaks.push({ field, rule: rule.name, excerpt: JSON.stringify(value.slice(Math.max(0, found.index - 30), found.index + 50)) });
          }
        }
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${field}[${index}]`, key));
    } else if (typeof value === 'object' && value !== null) {
      for (const [name, item] of Object.entries(value)) {
        visit(item, field === '' ? name : `${field}.${name}`, name);
      }
    }
  };
  visit(response, '', undefined);
  return leaks;
}

/** How many responses this process checked, and how many leaks they held. */
export const hygieneTally = { checked: 0, leaks: 0 };

/** Counts the response and throws, naming each leak, when it has any. */
export function assertHygienic(response: unknown): void {
  hygieneTally.checked++;
  const leaks = hygieneLeaks(response);
  if (leaks.length > 0) {
    hygieneTally.leaks += leaks.length;
    throw new Error(`the response leaks ${leaks.map((leak) => `${leak.rule} in ${leak.field}: ${leak.excerpt}`).join('; ')}\n${JSON.stringify(response)}`);
  }
}

export function hygieneReportLine(): string {
  return `hygiene: ${hygieneTally.checked} envelopes checked, ${hygieneTally.leaks} leaks`;
}
