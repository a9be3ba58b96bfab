/** The engine's limits: how much it reads, reports and shows, and which matches it refuses. */

/** What to do with a match that starts inside a line's indentation (see Limits.insideIndentation). */
export type InsideIndentationPolicy = 'warn' | 'refuseMultiline' | 'refuse';

export interface Limits {
  /** Lines shown before and after the closest partial match (snippet is 2n+1 lines). */
  readonly contextLines: number;
  /** Ambiguous match locations reported in detail; total_matches is never capped. */
  readonly maxMatchLocations: number;
  /** Files larger than this get FILE_TOO_LARGE. */
  readonly maxFileBytes: number;
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
}

export const DEFAULT_LIMITS: Limits = {
  contextLines: 6,
  maxMatchLocations: 5,
  maxFileBytes: 32 * 1024 * 1024,
  maxEnvelopeBytes: 32 * 1024,
  maxSnippetLineChars: 240,
  maxDiffBytes: 64 * 1024,
  insideIndentation: 'refuseMultiline',
};
