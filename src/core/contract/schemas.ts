/**
 * Zod schemas for requests and responses. They are the single source of truth:
 * the tools' inputSchema in package.json and the request-file JSON schema are
 * generated from them (scripts/generate-schemas.mjs), and a unit test fails on drift.
 */
import { z } from 'zod';
import { ALL_ERROR_CODES, type ErrorCode } from './errorCodes';

export const editSchema = z.object({
  old_string: z.string().describe('Exact text to replace, copied from the file (whitespace and line breaks included). Must occur exactly once unless replace_all is true.'),
  new_string: z.string().describe('Text to insert in its place, taken literally ($& and $1 are not patterns).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string. Default false.'),
}).strict();

const editsSchema = z.array(editSchema).describe('Edits applied in order, each to the text as the earlier edits left it.');

const filePathSchema = z.string().describe('Absolute path of the file to edit.');

const encodingSchema = z.string().describe('The file\'s text encoding (for example "windows-1252", "iso-8859-1", "shift_jis", "gbk", "euc-kr", "koi8-r"), used when the file has no byte order mark and is not valid UTF-8, or is plain ASCII (then the characters an edit adds are written in it). Default: refuse a file that is not UTF-8 and name its likely encoding.');

export const multiEditSchema = z.object({
  file_path: filePathSchema,
  edits: editsSchema,
  encoding: encodingSchema.optional(),
  dry_run: z.boolean().optional().describe('Validate and match everything and return a unified diff; write nothing. Default false.'),
  include_diff: z.boolean().optional().describe('Return the unified diff of a real run too. Default false.'),
}).strict();

export const fileEditsSchema = z.object({
  file_path: filePathSchema,
  edits: editsSchema,
  encoding: encodingSchema.optional(),
}).strict();

export const multiEditFilesSchema = z.object({
  files: z.array(fileEditsSchema).describe('Files to edit; every edit of every file is applied, or none is.'),
  dry_run: z.boolean().optional().describe('Validate and match everything and return unified diffs; write nothing. Default false.'),
  include_diff: z.boolean().optional().describe('Return the unified diffs of a real run too. Default false.'),
}).strict();

export const multiEditPatchSchema = z.object({
  patch: z.string().describe('One patch in one of three formats, told apart by their text: a Codex apply_patch patch ("*** Begin Patch"), a unified diff (as git diff or diff -u write it), or SEARCH/REPLACE blocks each under its file\'s path. Paths are relative to the workspace root. Every file operation (update, add, delete, move) applies, or none does.'),
  dry_run: z.boolean().optional().describe('Validate and match everything and return unified diffs; write nothing. Default false.'),
  full_diff: z.boolean().optional().describe('With dry_run: show every line of a file the patch deletes. Default false: a deleted file\'s diff says only how many lines it had.'),
}).strict();

export type Edit = z.infer<typeof editSchema>;
export type MultiEditRequest = z.infer<typeof multiEditSchema>;
export type FileEdits = z.infer<typeof fileEditsSchema>;
export type MultiEditFilesRequest = z.infer<typeof multiEditFilesSchema>;
export type MultiEditPatchRequest = z.infer<typeof multiEditPatchSchema>;

// ---- responses ----

const errorCodeSchema = z.enum(ALL_ERROR_CODES as [ErrorCode, ...ErrorCode[]]);

export const warningSchema = z.object({
  code: z.string(),
  message: z.string(),
  file_path: z.string().optional(),
  /** SYNTAX_REGRESSION: the 1-based line of the first new syntax error in the written text. */
  line: z.number().int().min(1).optional(),
});

export const fileOperations = ['update', 'add', 'delete', 'move'] as const;

export const fileResultSchema = z.object({
  file_path: z.string(),
  edits_applied: z.number().int(),
  replacements: z.number().int(),
  diff: z.string().optional(),
  /** Patches: what happened to the file. */
  operation: z.enum(fileOperations).optional(),
  /** A moved file: where it was. file_path is where it is now. */
  moved_from: z.string().optional(),
});

export const successResponseSchema = z.object({
  success: z.literal(true),
  summary: z.string(),
  files: z.array(fileResultSchema),
  warnings: z.array(warningSchema).optional(),
  dry_run: z.boolean(),
  /** The id of an applied request, for undo and the history; a dry run has none. */
  request_id: z.string().optional(),
  /** An undo's success: the request it took back. */
  undone_request_id: z.string().optional(),
  // multi_edit keeps these at the top level too
  file_path: z.string().optional(),
  edits_applied: z.number().int().optional(),
  replacements: z.number().int().optional(),
});

/** A line of the file: its 1-based number and its text (clipped like snippet lines). */
const fileLineSchema = z.object({ line: z.number().int().min(1), text: z.string() });

export const matchLocationSchema = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  /** 1-based line of the snippet's first line. */
  start_line: z.number().int().min(1).optional(),
  snippet: z.string(),
  /** The nearest line above the match such that the lines from it down to the match occur at no other match; the snippet reaches it. */
  distinct_above: fileLineSchema.optional(),
  /** The same below the match's last line. */
  distinct_below: fileLineSchema.optional(),
});

export const diagnosisKinds = [
  'EOL_MISMATCH', 'WHITESPACE_ONLY', 'INDENTATION', 'UNICODE_LOOKALIKE', 'UNICODE_NORMALIZATION',
  'ESCAPED_NEWLINES', 'ESCAPED_TEXT', 'LINE_NUMBER_PREFIX', 'DIFF_MARKERS', 'BLANK_LINES', 'ELIDED_CONTENT', 'CONTENT_MISMATCH',
  'ALREADY_APPLIED', 'STALE_CONTENT', 'INSIDE_TOKEN', 'IN_OTHER_FILE', 'REWRAPPED_LINES', 'SPLIT_HUNKS', 'REORDERED_LINES',
  'SPANS_CELLS',
] as const;

/** A cell of a notebook (.ipynb): its 0-based index in the cells list, its id (nbformat 4.5 and later), its type. */
export const notebookCellSchema = z.object({
  index: z.number().int().min(0),
  id: z.string().optional(),
  cell_type: z.string(),
});

/** A stretch of file text: 1-based lines and columns, the end column just past its last character. */
export const textRangeSchema = z.object({
  start_line: z.number().int().min(1),
  start_column: z.number().int().min(1),
  end_line: z.number().int().min(1),
  end_column: z.number().int().min(1),
});

/** One stretch where old_string and the file differ only in whitespace or look-alike characters. */
export const characterDifferenceSchema = z.object({
  old_string_line: z.number().int().min(1),
  old_string_column: z.number().int().min(1),
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  old_string_has: z.string(),
  file_has: z.string(),
  /** The file's run of spaces pads to a column: the character after it stands at this 1-based column, as a character after spaces does in the line above or below. */
  aligned_column: z.number().int().min(1).optional(),
});

export const diagnosisSchema = z.object({
  kind: z.enum(diagnosisKinds),
  detail: z.string(),
  /** File position of the first difference named (ALREADY_APPLIED: where new_string starts). */
  line: z.number().int().min(1).optional(),
  column: z.number().int().min(1).optional(),
  /** The 1-based line of old_string that differs first. */
  old_string_line: z.number().int().min(1).optional(),
  /** The file text old_string was compared with (ALREADY_APPLIED: new_string as it stands). */
  near_match: textRangeSchema.optional(),
  /** How many places that text occurs in the file, and the lines of the first few. */
  occurrences: z.number().int().min(0).optional(),
  occurrence_lines: z.array(z.number().int().min(1)).optional(),
  /** IN_OTHER_FILE: the file that holds old_string verbatim; line, column and occurrences are in that file. */
  other_file: z.string().optional(),
  /** SPLIT_HUNKS: the parts of old_string (1-based, inclusive lines of old_string) and the file line where each occurs. */
  parts: z.array(z.object({
    first_old_string_line: z.number().int().min(1),
    last_old_string_line: z.number().int().min(1),
    line: z.number().int().min(1),
  })).optional(),
  /**
   * REORDERED_LINES: for each line of old_string, in order, the file line that holds it. CONTENT_MISMATCH: for each
   * line of old_string the file has, the file line it stands for (`last_line` when the file split it over several;
   * two lines of old_string the file joined stand for one line), `differs` when its text differs there.
   */
  line_map: z.array(z.object({
    old_string_line: z.number().int().min(1),
    line: z.number().int().min(1),
    last_line: z.number().int().min(1).optional(),
    differs: z.boolean().optional(),
  })).optional(),
  /** CONTENT_MISMATCH: lines inside near_match that no line of old_string stands for (added to the file, or left out of old_string). */
  file_only_lines: z.array(z.number().int().min(1)).optional(),
  /** CONTENT_MISMATCH: lines of old_string (1-based) that the file does not have. */
  old_string_only_lines: z.array(z.number().int().min(1)).optional(),
  /**
   * WHITESPACE_ONLY, UNICODE_LOOKALIKE, INDENTATION: each difference (up to 32), where it stands in old_string
   * and in the file (1-based), and the exact text each side has there.
   */
  differences: z.array(characterDifferenceSchema).optional(),
  /** DIFF_MARKERS: whether new_string's lines carry a diff's markers too ("+" lines among them). */
  markers_in_new_string: z.boolean().optional(),
  /** STALE_CONTENT: the earlier edits of the request (0-based, in order) that changed the text old_string was written against. */
  changed_by: z.array(z.number().int().min(0)).optional(),
  /** SPANS_CELLS: the notebook cells old_string runs across, the first and the last. */
  cells: z.array(notebookCellSchema).optional(),
});

export const contextSchema = z.object({
  snippet: z.string().optional(),
  start_line: z.number().int().min(1).optional(),
  /** 1-based line, inside the snippet, of the closest partial match: its line that differs least from old_string. */
  closest_line: z.number().int().min(1).optional(),
  match_locations: z.array(matchLocationSchema).optional(),
  total_matches: z.number().int().min(0).optional(),
  /** The line of every match, in order, up to a bound far above the detailed locations. */
  match_lines: z.array(z.number().int().min(1)).optional(),
  /** Snippet lines (1-based file lines) shortened with '…'; every other snippet line is whole. */
  clipped_lines: z.array(z.number().int().min(1)).optional(),
  /** FILE_NOT_FOUND: the existing names in the parent directory closest to the missing one. */
  nearby_names: z.array(z.string()).optional(),
  /** FILE_NOT_FOUND, RELATIVE_PATH: the existing file that a path written with backslashes names with forward slashes. */
  existing_path: z.string().optional(),
  /** Patches: the 1-based line of the patch where the failing hunk (or file operation) starts. */
  patch_line: z.number().int().min(1).optional(),
  /** UNREPRESENTABLE_CHARACTER: the character the file's encoding cannot hold, and where the edits would put it. */
  unrepresentable: z.object({
    character: z.string(),
    /** "U+20AC". */
    code_point: z.string(),
    encoding: z.string(),
    /** 1-based, in the text as the edits would leave it. */
    line: z.number().int().min(1),
    column: z.number().int().min(1),
    /** 1-based, in the edit's new_string. */
    new_string_line: z.number().int().min(1),
    new_string_column: z.number().int().min(1),
  }).optional(),
  /** SYNTAX_REGRESSION: where the edits' new syntax errors are in the would-be text (1-based), at most 5, first one first. */
  syntax_errors: z.array(z.object({ line: z.number().int().min(1), column: z.number().int().min(1) })).optional(),
  /**
   * A notebook edit matched as cell text: the cell whose source this context shows. The snippet, its
   * lines and columns, the match locations and the diagnosis's positions are in that cell's source.
   */
  notebook_cell: notebookCellSchema.optional(),
  /** AMBIGUOUS_MATCH in a notebook: the cells that hold a match, in order. */
  match_cells: z.array(notebookCellSchema).optional(),
});

export const editStatusSchema = z.object({
  edit_index: z.number().int().min(0),
  status: z.enum(['failed', 'skipped']),
  error_code: errorCodeSchema.optional(),
  message: z.string(),
  old_string_preview: z.string().optional(),
  file_index: z.number().int().min(0).optional(),
  file_path: z.string().optional(),
  /** For a skipped edit: the failed edits it waits on, 0-based within its file. */
  depends_on: z.array(z.number().int().min(0)).optional(),
  /** For match failures after the first: their own cause and context (the first one's are top-level). */
  diagnosis: diagnosisSchema.optional(),
  context: contextSchema.optional(),
});

/** One problem of a request that does not fit the schema, at its field. */
export const validationIssueSchema = z.object({
  /** "edits[1].old_string", as the message names it. */
  field: z.string(),
  /** The same field as keys and 0-based indexes, for tools that locate it in the request's JSON. */
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  /** A malformed patch: the 1-based line of the patch the problem is at. */
  patch_line: z.number().int().min(1).optional(),
});

/** multi_edit_files: one failing file and the 0-based indexes of its failed edits. */
export const fileToFixSchema = z.object({
  file_index: z.number().int().min(0),
  file_path: z.string(),
  /** Failed edits of this file, 0-based within it; empty when the file itself could not be edited. */
  edits: z.array(z.number().int().min(0)),
  /** When the file itself could not be edited (FILE_NOT_FOUND, RELATIVE_PATH, …): why, as the envelope would lead with it. */
  error_code: errorCodeSchema.optional(),
  message: z.string().optional(),
  recovery_hints: z.array(z.string()).optional(),
  /** nearby_names, existing_path: the file the caller most likely meant. */
  context: contextSchema.optional(),
});

export const nextActionSchema = z.object({
  action: z.enum(['fix_and_resubmit', 'reread_and_retry', 'retry_later', 'ask_user', 'stop']),
  can_retry: z.boolean(),
  /** Failed edits of the file the envelope leads with (file_index), 0-based within that file. */
  edits_to_fix: z.array(z.number().int().min(0)).optional(),
  /** multi_edit_files: every failing file, in request order, with its failed edits. */
  files_to_fix: z.array(fileToFixSchema).optional(),
  /** Set when the same failing request came back unchanged in this session: how many times it failed so. */
  repeated: z.number().int().min(2).optional(),
});

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error_code: errorCodeSchema,
  category: z.enum(['input', 'match', 'scope', 'filesystem', 'transient', 'internal']),
  message: z.string(),
  retryable: z.boolean(),
  file_path: z.string().optional(),
  file_index: z.number().int().min(0).optional(),
  edit_index: z.number().int().min(0).optional(),
  recovery_hints: z.array(z.string()),
  diagnosis: diagnosisSchema.optional(),
  context: contextSchema.optional(),
  edit_status: z.array(editStatusSchema),
  next_action: nextActionSchema,
  summary: z.string(),
  /** Files restored after a partial write (WRITE_FAILED and friends). */
  rolled_back: z.array(z.string()).optional(),
  /** VALIDATION_FAILED: every schema problem of the request, where the message names the first. */
  validation_issues: z.array(validationIssueSchema).optional(),
  /** Set when detail was dropped to keep the envelope within its size limit. */
  truncated: z.boolean().optional(),
  dry_run: z.boolean().optional(),
});

export const responseSchema = z.discriminatedUnion('success', [successResponseSchema, errorEnvelopeSchema]);

export type Warning = z.infer<typeof warningSchema>;
export type FileOperation = (typeof fileOperations)[number];
export type FileResult = z.infer<typeof fileResultSchema>;
export type SuccessResponse = z.infer<typeof successResponseSchema>;
export type MatchLocation = z.infer<typeof matchLocationSchema>;
export type DiagnosisKind = (typeof diagnosisKinds)[number];
export type Diagnosis = z.infer<typeof diagnosisSchema>;
export type CharacterDifference = z.infer<typeof characterDifferenceSchema>;
export type TextRange = z.infer<typeof textRangeSchema>;
export type EnvelopeContext = z.infer<typeof contextSchema>;
export type EditStatus = z.infer<typeof editStatusSchema>;
export type ValidationIssue = z.infer<typeof validationIssueSchema>;
export type FileToFix = z.infer<typeof fileToFixSchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type EngineResponse = z.infer<typeof responseSchema>;

/** A success response whose diffs are held as `Diff` (DiffPieces, for a caller that writes them as they are made). */
export type SuccessResponseWith<Diff> = Omit<SuccessResponse, 'files'> & { files: (Omit<FileResult, 'diff'> & { diff?: Diff })[] };

/** JSON Schemas for the tools' inputSchema and the request-file schema. */
export function requestJsonSchemas(): { multi_edit: object; multi_edit_files: object; multi_edit_patch: object } {
  return {
    multi_edit: z.toJSONSchema(multiEditSchema, { target: 'draft-7' }),
    multi_edit_files: z.toJSONSchema(multiEditFilesSchema, { target: 'draft-7' }),
    multi_edit_patch: z.toJSONSchema(multiEditPatchSchema, { target: 'draft-7' }),
  };
}
