/** The engine's limits: how much it reads, reports and shows, and which matches it refuses. */

/** What to do with a match that starts inside a line's indentation (see Limits.insideIndentation). */
export type InsideIndentationPolicy = 'warn' | 'refuseMultiline' | 'refuse';

/** What to do with a match that starts or ends inside a word or a number (see Limits.insideToken). */
export type InsideTokenPolicy = 'warn' | 'refuseSuspicious' | 'refuse';

export interface Limits {
  /** Lines shown before and after the closest partial match (snippet is 2n+1 lines). */
  readonly contextLines: number;
  /** Ambiguous match locations reported in detail; total_matches is never capped. */
  readonly maxMatchLocations: number;
  /** Files larger than this get FILE_TOO_LARGE, and so does an edit that would make a file larger. */
  readonly maxFileBytes: number;
  /** A request holding more characters of text than this (a patch's whole text, every old_string and new_string) is VALIDATION_FAILED. */
  readonly maxRequestChars: number;
  /** A request with more edits than this (a patch's hunks count) is VALIDATION_FAILED. */
  readonly maxEdits: number;
  /** The serialised envelope stays within this many bytes by dropping detail, never fields. */
  readonly maxEnvelopeBytes: number;
  /** Snippet lines longer than this are clipped. */
  readonly maxSnippetLineChars: number;
  /** The diffs of one success response stay within this many bytes, clipped at hunk boundaries. */
  readonly maxDiffBytes: number;
  /**
   * A match that starts inside a line's indentation (old_string indented less than the
   * line): 'warn' applies it with a warning; 'refuseMultiline' refuses it when
   * new_string spans lines (they would land mis-indented) and warns otherwise; 'refuse' always refuses.
   */
  readonly insideIndentation: InsideIndentationPolicy;
  /**
   * A match whose first or last character falls strictly inside an identifier or a
   * number: 'warn' applies it with a MATCH_INSIDE_TOKEN warning; 'refuseSuspicious'
   * refuses it when new_string does not continue the token at that end (it ends or
   * starts with another kind of character, or already holds the token's rest) and
   * warns otherwise; 'refuse' always refuses it. replace_all edits are only warned.
   */
  readonly insideToken: InsideTokenPolicy;
}

export const DEFAULT_LIMITS: Limits = {
  contextLines: 6,
  maxMatchLocations: 5,
  maxFileBytes: 32 * 1024 * 1024,
  maxRequestChars: 64 * 1024 * 1024,
  maxEdits: 20_000,
  maxEnvelopeBytes: 32 * 1024,
  maxSnippetLineChars: 240,
  maxDiffBytes: 64 * 1024,
  insideIndentation: 'refuseMultiline',
  insideToken: 'refuseSuspicious',
};
