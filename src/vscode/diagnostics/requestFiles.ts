/**
 * A tolerant view of a request as it was given. Failed requests may not fit the
 * schema, so nothing here assumes a field exists or has the right type.
 */
import { TOOL_MULTI_EDIT_FILES, type ToolName } from '../../core/index';

export interface RequestEdit {
  readonly oldString: string | undefined;
  readonly newString: string | undefined;
  readonly replaceAll: boolean;
}

export interface RequestFile {
  readonly filePath: string | undefined;
  readonly edits: readonly RequestEdit[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readEdit(raw: unknown): RequestEdit {
  const edit = isRecord(raw) ? raw : {};
  return {
    oldString: optionalString(edit.old_string),
    newString: optionalString(edit.new_string),
    replaceAll: edit.replace_all === true,
  };
}

function readFile(raw: unknown): RequestFile {
  const file = isRecord(raw) ? raw : {};
  return {
    filePath: optionalString(file.file_path),
    edits: Array.isArray(file.edits) ? file.edits.map(readEdit) : [],
  };
}

/** The request's files in order; a multi_edit request is one file. */
export function requestFiles(tool: ToolName, input: unknown): readonly RequestFile[] {
  if (!isRecord(input)) {
    return [];
  }
  if (tool === TOOL_MULTI_EDIT_FILES) {
    return Array.isArray(input.files) ? input.files.map(readFile) : [];
  }
  return [readFile(input)];
}

/**
 * A copy of the request with one edit's replace_all set. The copy is deep, so the
 * original request (still shown for the old failure) stays as it was.
 */
export function withReplaceAll(tool: ToolName, input: unknown, fileIndex: number, editIndex: number): unknown {
  const copy: unknown = structuredClone(input);
  if (!isRecord(copy)) {
    return copy;
  }
  const file = tool === TOOL_MULTI_EDIT_FILES ? (Array.isArray(copy.files) ? copy.files[fileIndex] : undefined) : copy;
  const edit = isRecord(file) && Array.isArray(file.edits) ? file.edits[editIndex] : undefined;
  if (isRecord(edit)) {
    edit.replace_all = true;
  }
  return copy;
}

/** A shallow copy of the request as a dry run (`dryRun`) or as a real run (no dry_run key); other values as they are. */
export function withDryRun(input: unknown, dryRun: boolean): unknown {
  if (!isRecord(input)) {
    return input;
  }
  const request: Record<string, unknown> = { ...input };
  if (dryRun) {
    request.dry_run = true;
  } else {
    delete request.dry_run;
  }
  return request;
}
