/**
 * Every ErrorEnvelope is made here, from the codes table: category, retryable, hints
 * and next action can never disagree with the code. The engine builds every failure
 * envelope here; adapters receive them and never build their own.
 */
import { codeInfo, type ErrorCode, type NextAction } from './errorCodes';
import { DEFAULT_LIMITS } from './limits';
import type { Diagnosis, EditStatus, EnvelopeContext, ErrorEnvelope, FileToFix, ValidationIssue } from './schemas';
import { isHighSurrogate, isLowSurrogate } from '../text/surrogates';

export interface EnvelopeExtras {
  readonly file_path?: string;
  readonly file_index?: number;
  readonly edit_index?: number;
  /** Hints for this case; they come before the code's general hints. */
  readonly hints?: readonly string[];
  /** The case's hints replace the code's general ones, which they answer more precisely. */
  readonly ownHintsOnly?: boolean;
  readonly diagnosis?: Diagnosis;
  readonly context?: EnvelopeContext;
  readonly edit_status?: readonly EditStatus[];
  readonly edits_to_fix?: readonly number[];
  readonly files_to_fix?: readonly FileToFix[];
  /** Replaces the code's next action when the case knows better (ALREADY_APPLIED: reread_and_retry). */
  readonly action?: NextAction;
  /** One line; defaults to the code and the message. */
  readonly summary?: string;
  readonly rolled_back?: readonly string[];
  readonly validation_issues?: readonly ValidationIssue[];
  readonly dry_run?: boolean;
  /** The serialised envelope stays within this many bytes. */
  readonly maxBytes?: number;
}

const MAX_MESSAGE_CHARS = 1000;

export function envelopeFor(code: ErrorCode, message: string, extras: EnvelopeExtras = {}): ErrorEnvelope {
  const info = codeInfo(code);
  const cleanMessage = sanitizeText(message);
  const envelope: ErrorEnvelope = {
    success: false,
    error_code: code,
    category: info.category,
    message: cleanMessage,
    retryable: info.retryable,
    ...(extras.file_path !== undefined ? { file_path: extras.file_path } : {}),
    ...(extras.file_index !== undefined ? { file_index: extras.file_index } : {}),
    ...(extras.edit_index !== undefined ? { edit_index: extras.edit_index } : {}),
    recovery_hints: [...new Set([...(extras.hints ?? []), ...(extras.ownHintsOnly ? [] : info.hints)])],
    ...(extras.diagnosis ? { diagnosis: { ...extras.diagnosis, detail: sanitizeText(extras.diagnosis.detail) } } : {}),
    ...(extras.context ? { context: extras.context } : {}),
    edit_status: (extras.edit_status ?? []).map((status) => ({ ...status, message: sanitizeText(status.message) })),
    next_action: {
      action: extras.action ?? info.nextAction,
      can_retry: info.retryable,
      ...(extras.edits_to_fix && extras.edits_to_fix.length > 0 ? { edits_to_fix: [...extras.edits_to_fix] } : {}),
      ...(extras.files_to_fix && extras.files_to_fix.length > 0 ? { files_to_fix: extras.files_to_fix.map((file) => ({ ...file, edits: [...file.edits] })) } : {}),
    },
    summary: sanitizeText(extras.summary ?? `${code}: ${cleanMessage}`),
    ...(extras.rolled_back && extras.rolled_back.length > 0 ? { rolled_back: [...extras.rolled_back] } : {}),
    ...(extras.validation_issues && extras.validation_issues.length > 0
      ? { validation_issues: extras.validation_issues.map((issue) => ({ ...issue, message: sanitizeText(issue.message) })) }
      : {}),
    ...(extras.dry_run !== undefined ? { dry_run: extras.dry_run } : {}),
  };
  return boundEnvelope(envelope, extras.maxBytes ?? DEFAULT_LIMITS.maxEnvelopeBytes);
}

/**
 * One line of product text: no stack frames, no source locations of the running
 * code (which would reveal where the extension is installed), bounded length.
 */
export function sanitizeText(text: string): string {
  const withoutStack = text.split(/\r?\n\s*at\s/)[0];
  const withoutLocations = withoutStack.replace(/\(?(?:file:\/\/)?(?:\/|[A-Za-z]:\\)[^\s()'"]*:\d+:\d+\)?/g, '');
  const oneLine = escapeControls(withoutLocations.replace(/\s*[\r\n]+\s*/g, ' ').trim());
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS - 1)}…` : oneLine;
}

/**
 * Control characters (a path or a name may carry them) written as visible escapes, so
 * that product text never drives a terminal or hides its own content.
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Bytes of `value` in UTF-8. */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (let at = 0; at < value.length; at++) {
    const code = value.charCodeAt(at);
    if (code < 0x80) {
      bytes += 1;
    } else if (code < 0x800) {
      bytes += 2;
    } else if (isHighSurrogate(code) && at + 1 < value.length) {
      const next = value.charCodeAt(at + 1);
      if (isLowSurrogate(next)) {
        bytes += 4;
        at++;
      } else {
        bytes += 3;
      }
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

export function envelopeBytes(envelope: ErrorEnvelope): number {
  return utf8Length(JSON.stringify(envelope));
}

type Reduction = (envelope: ErrorEnvelope) => ErrorEnvelope;

/**
 * Detail dropped, in order, until the envelope fits: what the caller can most
 * easily do without goes first. Every field stays; only its content shrinks.
 */
const REDUCTIONS: readonly Reduction[] = [
  // The later failures' own context goes first; their diagnosis stays, and the lead keeps everything.
  (envelope) => ({
    ...envelope,
    edit_status: envelope.edit_status.map((status) => (status.context ? { ...status, context: shrinkSnippet(withoutLocationSnippets(status.context), 5, 120) } : status)),
  }),
  (envelope) => ({
    ...envelope,
    edit_status: envelope.edit_status.map(({ context: _context, ...status }) => status),
  }),
  (envelope) => mapContext(envelope, withoutLocationSnippets),
  (envelope) => mapContext(envelope, (context) => (context.match_lines ? { ...context, match_lines: context.match_lines.slice(0, 100) } : context)),
  (envelope) => mapContext(envelope, (context) => shrinkSnippet(context, 5, 120)),
  (envelope) => ({
    ...envelope,
    edit_status: envelope.edit_status.map(({ old_string_preview: _preview, ...status }) => ({ ...status, message: clip(status.message, 80) })),
  }),
  (envelope) => ({
    ...envelope,
    recovery_hints: envelope.recovery_hints.slice(0, 3).map((hint) => clip(hint, 160)),
    ...(envelope.diagnosis ? { diagnosis: { ...envelope.diagnosis, detail: clip(envelope.diagnosis.detail, 160) } } : {}),
  }),
  (envelope) => mapContext(envelope, (context) => shrinkSnippet(context, 1, 80)),
  (envelope) => ({ ...envelope, message: clip(envelope.message, 200), summary: clip(envelope.summary, 200) }),
  (envelope) => mapContext(envelope, (context) => ({
    ...context,
    ...(context.match_locations ? { match_locations: context.match_locations.slice(0, 1) } : {}),
  })),
];

/** Keeps the serialised envelope within `maxBytes`, setting `truncated` when anything was dropped. */
export function boundEnvelope(envelope: ErrorEnvelope, maxBytes: number): ErrorEnvelope {
  if (envelopeBytes(envelope) <= maxBytes) {
    return envelope;
  }
  let reduced: ErrorEnvelope = { ...envelope, truncated: true };
  for (const reduce of REDUCTIONS) {
    reduced = reduce(reduced);
    if (envelopeBytes(reduced) <= maxBytes) {
      return reduced;
    }
  }
  return shortenLists(reduced, maxBytes);
}

/** The last resort for requests with very many failing edits: keep the first entries only. */
function shortenLists(envelope: ErrorEnvelope, maxBytes: number): ErrorEnvelope {
  let keep = Math.max(envelope.edit_status.length, envelope.validation_issues?.length ?? 0);
  let shortened = envelope;
  while (keep > 1 && envelopeBytes(shortened) > maxBytes) {
    keep = Math.max(1, keep >> 1);
    const { edits_to_fix: editsToFix, files_to_fix: filesToFix } = envelope.next_action;
    shortened = {
      ...envelope,
      edit_status: envelope.edit_status.slice(0, keep),
      next_action: {
        ...envelope.next_action,
        ...(editsToFix ? { edits_to_fix: editsToFix.slice(0, keep) } : {}),
        ...(filesToFix ? { files_to_fix: filesToFix.slice(0, keep).map((file) => ({ ...file, edits: file.edits.slice(0, keep) })) } : {}),
      },
      ...(envelope.validation_issues ? { validation_issues: envelope.validation_issues.slice(0, keep) } : {}),
    };
  }
  return shortened;
}

function mapContext(envelope: ErrorEnvelope, change: (context: EnvelopeContext) => EnvelopeContext): ErrorEnvelope {
  return envelope.context ? { ...envelope, context: change(envelope.context) } : envelope;
}

function withoutLocationSnippets(context: EnvelopeContext): EnvelopeContext {
  return context.match_locations ? { ...context, match_locations: context.match_locations.map((location) => ({ ...location, snippet: '' })) } : context;
}

/**
 * `lines` lines of the snippet, each at most `lineChars` long, centred on the closest line when
 * there is one (on the middle otherwise); start_line follows, and clipped_lines still names every
 * clipped line that is left.
 */
function shrinkSnippet(context: EnvelopeContext, lines: number, lineChars: number): EnvelopeContext {
  if (context.snippet === undefined) {
    return context;
  }
  const all = context.snippet.split('\n');
  const centre = context.closest_line !== undefined && context.start_line !== undefined
    ? context.closest_line - context.start_line
    : Math.floor(all.length / 2);
  const first = Math.max(0, Math.min(all.length - lines, centre - Math.floor(lines / 2)));
  const startLine = (context.start_line ?? 1) + first;
  const kept = all.slice(first, first + lines);
  const shortened = kept.map((line) => clip(line, lineChars));
  const wasClipped = new Set(context.clipped_lines ?? []);
  const clipped = kept.flatMap((line, at) => (wasClipped.has(startLine + at) || shortened[at] !== line ? [startLine + at] : []));
  const rest: EnvelopeContext = { ...context };
  delete rest.clipped_lines;
  return {
    ...rest,
    snippet: shortened.join('\n'),
    ...(context.start_line !== undefined ? { start_line: startLine } : {}),
    ...(clipped.length > 0 ? { clipped_lines: clipped } : {}),
  };
}

function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) {
    return text;
  }
  let end = maxChars - 1;
  if (isHighSurrogate(text.charCodeAt(end - 1))) {
    end--;
  }
  return `${text.slice(0, end)}…`;
}
