/**
 * Turns a failed envelope into drafts of diagnostics: one per failed edit (or per
 * failed file or request), placed where the user can see what went wrong, and
 * one Information draft per skipped edit, on the failure it waits for.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeInfo, type Edit, type ErrorCode, type ErrorEnvelope, failureEntries, type FailureEntry as Entry } from '../../core/index';
import { absoluteTarget, isFile, openDocument } from '../platform/workspacePaths';
import type { FailedRequest, FailureDraft, Placement } from './failure';
import { closestMatchRange, occurrences, spanFrom } from './locate';
import { positionsInFileAsRead } from './positionsInFile';

/** Codes about one edit's old_string: these sit on the text they concern. */
const EDIT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'MATCH_NOT_FOUND', 'AMBIGUOUS_MATCH', 'DUPLICATE_OLD_STRING', 'NO_OP_EDIT', 'EMPTY_OLD_STRING', 'SYNTAX_REGRESSION',
]);
/** Matches located in the document when the envelope's are not in its coordinates. */
const MAX_LOCATED_MATCHES = 1000;

type Request = FailedRequest;

function editOf(request: Request, entry: Entry): Edit | undefined {
  return entry.editIndex === undefined ? undefined : request.request?.files[entry.fileIndex]?.edits[entry.editIndex];
}

/** The path of the entry's file as the response or the request names it (before resolution). */
function requestedPath(request: Request, entry: Entry): string | undefined {
  return entry.filePath ?? request.request?.files[entry.fileIndex]?.filePath;
}

/**
 * The entry's file as an absolute path, as the engine resolved it; only a request that did not
 * parse (so the engine resolved nothing) has its path resolved here, as the engine would have.
 */
function targetOf(request: Request, entry: Entry): string | undefined {
  return request.request ? request.request.files[entry.fileIndex]?.path : absoluteTarget(entry.filePath);
}

function firstLine(document: vscode.TextDocument): vscode.Range {
  return document.lineAt(0).range;
}

/** The document range of a 1-based envelope position and the text that starts there. */
function rangeAt(document: vscode.TextDocument, line: number, column: number, needle: string): vscode.Range {
  return spanFrom(document, new vscode.Position(line - 1, column - 1), needle);
}

/**
 * The matches the envelope reports; when its positions are not in the document's coordinates
 * (an earlier edit of the file applied first), the document is searched instead.
 */
function ambiguousPlacement(document: vscode.TextDocument, needle: string, entry: Entry, inDocument: boolean): Placement {
  const context = entry.context;
  const ranges = !inDocument
    ? occurrences(document, needle, MAX_LOCATED_MATCHES)
    : context?.match_locations && context.match_locations.length > 0
      ? context.match_locations.map((location) => rangeAt(document, location.line, location.column, needle))
      : (context?.match_lines ?? []).map((line) => document.lineAt(Math.min(line, document.lineCount) - 1).range);
  return {
    uri: document.uri,
    range: ranges[0] ?? firstLine(document),
    matches: ranges.map((range) => new vscode.Location(document.uri, range)),
  };
}

/** The text the engine compared old_string with, or its closest line; the document is searched only when those are not in its coordinates. */
function missPlacement(document: vscode.TextDocument, needle: string, entry: Entry, inDocument: boolean): Placement {
  if (!inDocument) {
    return { uri: document.uri, range: closestMatchRange(document, needle) ?? firstLine(document), matches: [] };
  }
  const near = entry.diagnosis?.other_file === undefined ? entry.diagnosis?.near_match : undefined;
  const closestLine = entry.context?.closest_line;
  const range = near
    ? document.validateRange(new vscode.Range(near.start_line - 1, near.start_column - 1, near.end_line - 1, near.end_column - 1))
    : closestLine !== undefined && closestLine <= document.lineCount ? document.lineAt(closestLine - 1).range : firstLine(document);
  return { uri: document.uri, range, matches: [] };
}

/** A refused edit on the text it replaces, where the engine's plan put it. */
function refusedPlacement(document: vscode.TextDocument, request: Request, entry: Entry): Placement {
  const place = request.refusedEdits?.find((refused) => refused.fileIndex === entry.fileIndex && refused.editIndex === entry.editIndex);
  const range = place ? new vscode.Range(document.positionAt(place.start), document.positionAt(place.end)) : firstLine(document);
  return { uri: document.uri, range, matches: [] };
}

function editPlacement(document: vscode.TextDocument, needle: string, entry: Entry, request: Request): Placement {
  const inDocument = positionsInFileAsRead(request.envelope, entry.fileIndex, entry.editIndex ?? 0);
  switch (entry.code) {
    case 'AMBIGUOUS_MATCH':
      return ambiguousPlacement(document, needle, entry, inDocument);
    case 'MATCH_NOT_FOUND':
      return missPlacement(document, needle, entry, inDocument);
    case 'SYNTAX_REGRESSION':
      return refusedPlacement(document, request, entry);
    default:
      // Refused before matching (an empty old_string, one equal to its new_string or to an earlier edit's): no place in the file.
      return { uri: document.uri, range: firstLine(document), matches: [] };
  }
}

/** The request file (or selection) the request came from: on the failing file's path when it is there. */
async function originPlacement(request: Request, rawPath: string | undefined): Promise<Placement | undefined> {
  const origin = request.origin;
  const document = origin ? await openDocument(origin.uri) : undefined;
  if (!origin || !document) {
    return undefined;
  }
  const start = document.offsetAt(origin.range.start);
  const quoted = rawPath === undefined ? -1 : document.getText(origin.range).indexOf(JSON.stringify(rawPath));
  const range = quoted === -1
    ? document.lineAt(origin.range.start.line).range
    : new vscode.Range(document.positionAt(start + quoted), document.positionAt(start + quoted + JSON.stringify(rawPath).length));
  return { uri: origin.uri, range, matches: [] };
}

/**
 * A failure of a whole file or request: on the file itself when it exists; input
 * errors prefer the request's own document; a missing file falls back to the
 * closest-named file beside it. Undefined when there is nowhere to show it.
 */
async function fileLevelPlacement(request: Request, entry: Entry, rawPath: string | undefined, target: string | undefined): Promise<Placement | undefined> {
  const onTarget = async (): Promise<Placement | undefined> => {
    const uri = target === undefined ? undefined : vscode.Uri.file(target);
    return uri && await isFile(uri) ? { uri, range: new vscode.Range(0, 0, 0, 0), matches: [] } : undefined;
  };
  const inputError = codeInfo(entry.code).category === 'input';
  const placement = inputError
    ? (await originPlacement(request, rawPath)) ?? (await onTarget())
    : (await onTarget()) ?? (await originPlacement(request, rawPath));
  if (placement || entry.code !== 'FILE_NOT_FOUND' || target === undefined) {
    return placement;
  }
  const closest = entry.context?.nearby_names?.[0];
  const sibling = closest === undefined ? undefined : vscode.Uri.file(path.join(path.dirname(target), closest));
  return sibling && await isFile(sibling) ? { uri: sibling, range: new vscode.Range(0, 0, 0, 0), matches: [] } : undefined;
}

async function placeFailure(request: Request, entry: Entry): Promise<Placement | undefined> {
  const rawPath = requestedPath(request, entry);
  const target = targetOf(request, entry);
  const needle = editOf(request, entry)?.old_string;
  if (EDIT_CODES.has(entry.code) && needle !== undefined && target !== undefined) {
    const document = await openDocument(vscode.Uri.file(target));
    if (document) {
      return editPlacement(document, needle, entry, request);
    }
  }
  return fileLevelPlacement(request, entry, rawPath, target);
}

/** The entry of the failed edit a skipped one waits on, as the engine names it in depends_on. */
function dependencyOf(entries: readonly Entry[], skipped: Entry): number | undefined {
  const waitedOn = skipped.dependsOn?.[0];
  if (waitedOn === undefined) {
    return undefined;
  }
  const index = entries.findIndex((entry) => entry.fileIndex === skipped.fileIndex && entry.editIndex === waitedOn && entry.status === 'failed');
  return index === -1 ? undefined : index;
}

/** The envelope's count is never capped; without one, the matches placed. */
function totalMatches(entry: Entry, placement: Placement | undefined): number {
  return entry.context?.total_matches ?? placement?.matches.length ?? 0;
}

function hintsFor(entry: Entry, envelope: ErrorEnvelope): readonly string[] {
  if (entry.status === 'skipped') {
    return [];
  }
  return entry.lead ? envelope.recovery_hints : codeInfo(entry.code).hints;
}

export async function draftFailures(request: Request): Promise<FailureDraft[]> {
  const { envelope } = request;
  const entries = failureEntries(envelope);
  const placements = await Promise.all(entries.map((entry) => (entry.status === 'failed' ? placeFailure(request, entry) : undefined)));
  return entries.map((entry, index): FailureDraft => {
    const dependsOnDraft = entry.status === 'skipped' ? dependencyOf(entries, entry) : undefined;
    const placement = dependsOnDraft === undefined ? placements[index] : placements[dependsOnDraft];
    const target = targetOf(request, entry);
    return {
      status: entry.status,
      code: dependsOnDraft === undefined ? entry.code : entries[dependsOnDraft].code,
      fileIndex: entry.fileIndex,
      ...(entry.editIndex !== undefined ? { editIndex: entry.editIndex } : {}),
      ...(target !== undefined ? { targetPath: target } : {}),
      ...(entry.code === 'AMBIGUOUS_MATCH' ? { totalMatches: totalMatches(entry, placement) } : {}),
      ...(entry.lead && entry.diagnosis ? { diagnosis: entry.diagnosis } : {}),
      hints: hintsFor(entry, envelope),
      message: entry.message,
      ...(dependsOnDraft !== undefined ? { dependsOnDraft } : {}),
      ...(placement ? { placement } : {}),
    };
  });
}
