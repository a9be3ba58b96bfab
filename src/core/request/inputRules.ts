/**
 * Rules on a request's strings that the schema cannot state: a path must be one the
 * operating system can take (no NUL byte, not longer than PATH_MAX), and edit strings
 * must be well-formed UTF-16, since a lone surrogate cannot be written as UTF-8 (it
 * would match half of an emoji, or be written as U+FFFD).
 */
import type { Edit } from '../contract/schemas';

/** PATH_MAX on Linux, in bytes; longer paths are refused by every call that takes one. */
export const MAX_PATH_BYTES = 4096;

export interface FileInput {
  readonly filePath: string;
  readonly edits: readonly Edit[];
}

/** The first broken rule, as "<field>: <what is wrong>", or undefined. `prefix` is "" or "files[i]." */
export function inputRuleProblem(file: FileInput, prefix: string): string | undefined {
  const pathProblem = problemWithPath(file.filePath);
  if (pathProblem) {
    return `${prefix}file_path ${pathProblem}`;
  }
  for (const [editIndex, edit] of file.edits.entries()) {
    for (const field of ['old_string', 'new_string'] as const) {
      const at = loneSurrogateAt(edit[field]);
      if (at !== undefined) {
        const unit = edit[field].charCodeAt(at).toString(16).toUpperCase();
        return `${prefix}edits[${editIndex}].${field} contains a lone surrogate (U+${unit}) at index ${at}; it cannot be written as UTF-8`;
      }
    }
  }
  return undefined;
}

function problemWithPath(path: string): string | undefined {
  if (path.includes('\0')) {
    return 'contains a NUL byte, which no file name can hold';
  }
  const bytes = utf8Bytes(path);
  if (bytes > MAX_PATH_BYTES) {
    return `is ${bytes} bytes long; paths are limited to ${MAX_PATH_BYTES}`;
  }
  return undefined;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The index of the first unpaired surrogate, or undefined for well-formed text. */
export function loneSurrogateAt(text: string): number | undefined {
  const found = LONE_SURROGATE.exec(text);
  return found === null ? undefined : found.index;
}
