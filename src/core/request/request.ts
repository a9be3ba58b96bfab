/**
 * The request the engine plans, whatever input format it came in (formats/inputFormats.ts reads
 * each tool's input into it), and the input error that explains what is wrong with an input. The
 * engine reads how to run it and how to answer from this, never from the tool name.
 */
import type { ErrorCode } from '../contract/errorCodes';
import type { ToolName } from '../contract/toolNames';
import type { Edit, FileOperation, MultiEditFilesRequest, MultiEditPatchRequest, MultiEditRequest, ValidationIssue } from '../contract/schemas';
import type { HunkPlacement } from '../matching/placement';

export interface FileRequest {
  /** The file read: for a move, where it is before the move. */
  readonly filePath: string;
  readonly edits: readonly Edit[];
  /** The encoding to read the file in when it has no BOM and is not UTF-8, as the caller named it. */
  readonly encoding?: string;
  /** What happens to the file; absent means its edits update it. */
  readonly operation?: FileOperation;
  /** A move: where the file goes, as the caller wrote it. */
  readonly moveTo?: string;
  /** An added file: its whole text. */
  readonly content?: string;
  /** A patch: one placement per edit (each edit is a hunk), in order. */
  readonly hunks?: readonly HunkPlacement[];
  /** A patch: the 1-based line where this file's operation starts. */
  readonly patchLine?: number;
}

export interface ParsedRequest {
  /** What the caller sent: the tool it called, which names its input format. */
  readonly tool: ToolName;
  /** How the engine answers: with one file's fields at the top of the response (multi_edit), or with files[] only. */
  readonly singleFile: boolean;
  readonly files: readonly FileRequest[];
  readonly dryRun: boolean;
  readonly includeDiff: boolean;
  /** A patch's dry run shows every line of a deleted file, where it otherwise says only how many lines go. */
  readonly fullDiff?: boolean;
  /** A patch: its text as sent, so the request can be sent again as it was. */
  readonly patch?: string;
  /** Relative paths name files under the engine's root (EngineOptions.root), as a patch's do. */
  readonly rootRelative?: boolean;
}

/** A file of a request once the engine checked its path: `path` is absolute, and absent when the check refused it. */
export interface ResolvedFile extends FileRequest {
  readonly path?: string;
  /** A move: the checked destination. */
  readonly movePath?: string;
}

/** The request as the engine parsed it, with every path it could resolve. */
export interface ResolvedRequest extends ParsedRequest {
  readonly files: readonly ResolvedFile[];
}

export interface RequestProblem {
  readonly code: Extract<ErrorCode, 'VALIDATION_FAILED' | 'EMPTY_EDITS' | 'UNKNOWN_TOOL'>;
  readonly message: string;
  readonly hints?: readonly string[];
  readonly fileIndex?: number;
  readonly filePath?: string;
  /** Every schema problem, the message's first included. */
  readonly issues?: readonly ValidationIssue[];
  /** The hints answer the problem better than the code's general ones, which are left out. */
  readonly ownHintsOnly?: boolean;
}

export type ParseResult = { readonly ok: true; readonly request: ParsedRequest } | { readonly ok: false; readonly problem: RequestProblem };

/** A request as a caller sends it, in any of the input formats. */
export type RequestInput = MultiEditRequest | MultiEditFilesRequest | MultiEditPatchRequest;
