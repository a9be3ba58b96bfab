/**
 * Turns raw tool input into a request the engine can plan, or into the input error
 * that explains what is wrong with it. Each tool name stands for one input format
 * (inputFormats.ts); what comes out is the same ParsedRequest for all of them, and the
 * engine reads how to run it and how to answer from that, never from the tool name.
 */
import type { ErrorCode } from '../contract/errorCodes';
import type { ToolName } from '../contract/toolNames';
import type { Edit, FileOperation, MultiEditFilesRequest, MultiEditPatchRequest, MultiEditRequest, ValidationIssue } from '../contract/schemas';
import { inputFormatOf, isToolName } from './inputFormats';
import type { Placement } from '../matching/placement';
import { DEFAULT_LIMITS } from '../contract/limits';
import { TOOL_MULTI_EDIT_PATCH } from '../contract/toolNames';
import { editCountProblem, inputSizeProblem, patchHunkCountProblem } from './requestLimits';

/** Where a hunk of a patch goes (matching/placement.ts), and the 1-based line of the patch where it starts. */
export interface HunkPlacement extends Placement {
  readonly patchLine: number;
}

export interface FileRequest {
  /** The file read: for a move, where it is before the move. */
  readonly filePath: string;
  readonly edits: readonly Edit[];
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
  /** The hints answer the case better than the code's general ones, which are left out. */
  readonly ownHintsOnly?: boolean;
  readonly fileIndex?: number;
  readonly filePath?: string;
  /** Every schema problem, the message's first included. */
  readonly issues?: readonly ValidationIssue[];
}

export type ParseResult = { readonly ok: true; readonly request: ParsedRequest } | { readonly ok: false; readonly problem: RequestProblem };

/** A request as a caller sends it, in any of the input formats. */
export type RequestInput = MultiEditRequest | MultiEditFilesRequest | MultiEditPatchRequest;

/** The request in its wire form again, as a caller would send it (defaults left out). */
export function requestInput(request: ParsedRequest): RequestInput {
  return inputFormatOf(request.tool).write(request);
}

export async function parseRequest(tool: string, input: unknown): Promise<ParseResult> {
  if (!isToolName(tool)) {
    return { ok: false, problem: { code: 'UNKNOWN_TOOL', message: `There is no tool named "${clipName(tool)}"` } };
  }
  const tooLarge = inputSizeProblem(input, DEFAULT_LIMITS) ?? (tool === TOOL_MULTI_EDIT_PATCH ? patchHunkCountProblem(input, DEFAULT_LIMITS) : undefined);
  if (tooLarge) {
    return { ok: false, problem: { code: 'VALIDATION_FAILED', message: tooLarge, hints: [SPLIT_HINT], ownHintsOnly: true } };
  }
  const read = await inputFormatOf(tool).read(input);
  const tooMany = read.ok ? editCountProblem(read.request, DEFAULT_LIMITS) : undefined;
  return tooMany ? { ok: false, problem: { code: 'VALIDATION_FAILED', message: tooMany, hints: [SPLIT_HINT], ownHintsOnly: true } } : read;
}

const SPLIT_HINT = 'Split the request into several smaller ones: each is applied all or nothing on its own';

function clipName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}
