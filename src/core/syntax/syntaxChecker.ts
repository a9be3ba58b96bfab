/**
 * The syntax gate's port: the adapters give the engine a SyntaxChecker (tree-sitter
 * and a JSON parser in Node and VS Code); the core only compares what it answers.
 */
import type { TextView } from '../text/editedText';

/** A stretch of text the parser could not read: UTF-16 offsets, `end` just past it (equal to `start` for a missing token). */
export interface SyntaxErrorSpan {
  readonly start: number;
  readonly end: number;
  /**
   * For an error that holds an edit's new text: the smallest error inside it nearest that text
   * (error recovery can make one node of everything from the file's start), where the error is
   * reported. Its own stretch when absent.
   */
  readonly focus?: { readonly start: number; readonly end: number };
}

/**
 * How a text was made from another: the stretches of `from` it replaced, in text order and
 * not overlapping, each with its replacement and where that starts in the new text. An
 * incremental parser that holds a tree of `from` reparses only around them.
 */
export interface TextChange {
  readonly from: string;
  readonly replaced: readonly { readonly start: number; readonly end: number; readonly newStart: number; readonly text: string }[];
}

export interface SyntaxChecker {
  /**
   * The syntax errors of `text` read as the language of `path`, in text order; undefined when
   * the path's language is not one the checker knows, so the file goes unchecked. `change`,
   * when given, says how `text` was made; the stretches are the same without it, but only
   * with it can an error that holds an edit's new text have its focus.
   */
  errorsIn(path: string, text: string, change?: TextChange): Promise<readonly SyntaxErrorSpan[] | undefined>;
  /**
   * Whether the checker knows the language of `path`; false spares the gate joining a large
   * new text only to hear that the file goes unchecked. Absent: errorsIn decides.
   */
  checks?(path: string): boolean;
  /**
   * A quicker road to an acceptance: true only when reading the changed words, or parsing
   * less than the whole file, shows that `text`, made by `change`, has no syntax error its
   * original did not have; false when it cannot tell, and the gate then compares the full parses.
   */
  addsNoErrorWithoutFullParse?(path: string, text: TextView, change: TextChange): Promise<boolean>;
}

/** What a new syntax error does to the request: refuse it, apply it with a warning, or nothing (no parsing at all). */
export type SyntaxCheckPolicy = 'refuse' | 'warn' | 'off';

export const SYNTAX_CHECK_POLICIES: readonly SyntaxCheckPolicy[] = ['refuse', 'warn', 'off'];
