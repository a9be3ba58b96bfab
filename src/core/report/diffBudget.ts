/**
 * Keeps the diffs of one success response within a byte budget, so a dry run of a
 * sweeping change cannot flood a model's context. Diffs are cut at hunk boundaries;
 * the files themselves are unaffected.
 */
import { utf8Length } from '../contract/envelope';
import type { Warning } from '../contract/schemas';

export interface ClippedDiffs {
  readonly diffs: readonly string[];
  readonly warning?: Warning;
}

export function clipDiffs(diffs: readonly string[], maxBytes: number): ClippedDiffs {
  // No limit (the CLI prints everything): nothing to count, and the diffs are not read here.
  if (maxBytes === Number.POSITIVE_INFINITY) {
    return { diffs };
  }
  const total = diffs.reduce((sum, diff) => sum + utf8Length(diff), 0);
  if (total <= maxBytes) {
    return { diffs };
  }
  let budget = maxBytes;
  let hunksLeftOut = 0;
  const clipped = diffs.map((diff) => {
    const hunks = splitHunks(diff);
    let kept = '';
    for (const [index, hunk] of hunks.entries()) {
      const size = utf8Length(hunk);
      // The file header (index 0) is always kept, so every file stays named.
      if (index > 0 && size > budget) {
        hunksLeftOut += hunks.length - index;
        return `${kept}@@ ${hunks.length - index} more hunk(s) not shown @@\n`;
      }
      kept += hunk;
      budget -= size;
    }
    return kept;
  });
  return {
    diffs: clipped,
    warning: {
      code: 'DIFF_TRUNCATED',
      message: `The diffs came to ${total} bytes, over the ${maxBytes}-byte limit: ${hunksLeftOut} hunk(s) are not shown. The edits themselves are complete.`,
    },
  };
}

/** The file header, then one string per hunk, each ending with its newline. */
function splitHunks(diff: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let at = diff.indexOf('\n@@', 0); at !== -1; at = diff.indexOf('\n@@', at + 1)) {
    parts.push(diff.slice(start, at + 1));
    start = at + 1;
  }
  parts.push(diff.slice(start));
  return parts;
}
