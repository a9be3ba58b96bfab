/** Reads a patch in whichever of the three formats its text is written in. */
import { patchLines, type PatchParse } from './patchModel';
import { isSearchReplace, parseSearchReplace } from './searchReplace';
import { isUnifiedDiff, parseUnifiedDiff } from './unifiedDiff';
import { isV4aPatch, parseV4a } from './v4a';

export function parsePatch(patch: string): PatchParse {
  const text = patch.replace(/^\uFEFF/, '');
  if (text.trim() === '') {
    return { ok: false, issues: [{ patchLine: 1, message: 'the patch is empty: expected a patch ("*** Begin Patch", a unified diff, or SEARCH/REPLACE blocks)' }] };
  }
  const lines = patchLines(text);
  if (isV4aPatch(lines)) {
    return parseV4a(lines);
  }
  if (isSearchReplace(lines)) {
    return parseSearchReplace(lines);
  }
  if (isUnifiedDiff(lines)) {
    return parseUnifiedDiff(lines);
  }
  return {
    ok: false,
    issues: [{
      patchLine: 1,
      message: 'expected a patch: "*** Begin Patch" (Codex apply_patch), a unified diff ("diff --git" or "---" and "+++" lines), or SEARCH/REPLACE blocks ("<<<<<<< SEARCH")',
    }],
  };
}
