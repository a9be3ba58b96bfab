/**
 * What is wrong with a request that does not fit its schema, in zod's words: the
 * field path and what was expected. Loaded only for a request the quick check
 * (requestShape.ts) does not accept, so a valid request never loads zod; the CLI
 * bundle keeps this module, and zod, in a file of its own (esbuild.mjs).
 */
import type { z } from 'zod';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH, type ToolName } from '../contract/toolNames';
import {
  multiEditFilesSchema, multiEditPatchSchema, multiEditSchema,
  type MultiEditFilesRequest, type MultiEditPatchRequest, type MultiEditRequest, type ValidationIssue,
} from '../contract/schemas';
import requestSchemas from '../contract/requestSchemas.json';
import { nearestNames } from '../nearMiss/nearbyNames';
import type { RequestProblem } from './request';

export type SchemaCheck =
  | { readonly ok: true; readonly tool: typeof TOOL_MULTI_EDIT; readonly data: MultiEditRequest }
  | { readonly ok: true; readonly tool: typeof TOOL_MULTI_EDIT_FILES; readonly data: MultiEditFilesRequest }
  | { readonly ok: true; readonly tool: typeof TOOL_MULTI_EDIT_PATCH; readonly data: MultiEditPatchRequest }
  | { readonly ok: false; readonly problem: RequestProblem };

/** Parses `input` with the tool's zod schema: the request, or the VALIDATION_FAILED problem. */
export function checkWithSchema(tool: ToolName, input: unknown): SchemaCheck {
  if (tool === TOOL_MULTI_EDIT) {
    const parsed = multiEditSchema.safeParse(input);
    return parsed.success
      ? { ok: true, tool, data: parsed.data }
      : { ok: false, problem: validationProblem(parsed.error, input, tool, 'files', `${TOOL_MULTI_EDIT} edits one file: pass file_path and edits; for several files call ${TOOL_MULTI_EDIT_FILES}`) };
  }
  if (tool === TOOL_MULTI_EDIT_PATCH) {
    const parsed = multiEditPatchSchema.safeParse(input);
    return parsed.success
      ? { ok: true, tool, data: parsed.data }
      : { ok: false, problem: validationProblem(parsed.error, input, tool, 'files', `${TOOL_MULTI_EDIT_PATCH} takes { patch: "<the patch text>" }; for JSON edits call ${TOOL_MULTI_EDIT_FILES}`) };
  }
  const parsed = multiEditFilesSchema.safeParse(input);
  return parsed.success
    ? { ok: true, tool, data: parsed.data }
    : { ok: false, problem: validationProblem(parsed.error, input, tool, 'file_path', `${TOOL_MULTI_EDIT_FILES} takes a files array of { file_path, edits }; for one file you can also call ${TOOL_MULTI_EDIT}`) };
}

/**
 * The first schema issue, named by its field path ("edits[2].old_string: expected
 * string, got number"), and every issue in `issues`. `otherToolKey` is the key that
 * shows the caller picked the wrong tool; `otherToolHint` says so.
 */
function validationProblem(error: z.ZodError, input: unknown, tool: ToolName, otherToolKey: string, otherToolHint: string): RequestProblem {
  const fields = (path: readonly (string | number)[]): readonly string[] => fieldNamesAt(requestSchemas[tool], path);
  const [first, ...rest] = error.issues;
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  const usedOtherToolKey = error.issues.some((issue) => issue.code === 'unrecognized_keys' && issue.path.length === 0 && issue.keys.includes(otherToolKey));
  return {
    code: 'VALIDATION_FAILED',
    message: `${describeIssue(first, input, fields)}${more}`,
    ...(usedOtherToolKey ? { hints: [otherToolHint] } : {}),
    issues: error.issues.flatMap((issue) => validationIssues(issue, input, fields)),
  };
}

/** One entry per field: an issue about unknown keys names each key. */
function validationIssues(issue: z.core.$ZodIssue, input: unknown, fields: FieldNames): ValidationIssue[] {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ field: fieldPath([...path, key]), path: [...path, key], message: unknownField(key, fields(path)) }));
  }
  const message = describeIssue(issue, input, fields);
  return [{ field: fieldPath(path), path, message: message.slice(message.indexOf(': ') + 2) }];
}

type FieldNames = (path: readonly (string | number)[]) => readonly string[];

/** "unknown field", naming the field the request most likely meant (new_strng: new_string). */
function unknownField(key: string, known: readonly string[]): string {
  const [closest] = nearestNames(key, known);
  return closest === undefined ? 'unknown field' : `unknown field; did you mean ${closest}?`;
}

interface JsonSchemaNode {
  readonly type?: unknown;
  readonly properties?: Record<string, JsonSchemaNode>;
  readonly items?: JsonSchemaNode;
}

/** The field names the tool's JSON Schema allows in the object at `path`. */
function fieldNamesAt(schema: JsonSchemaNode, path: readonly (string | number)[]): readonly string[] {
  let node: JsonSchemaNode | undefined = schema;
  for (const key of path) {
    node = typeof key === 'number' ? node?.items : node?.properties?.[key];
  }
  return Object.keys(node?.properties ?? {});
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown, fields: FieldNames): string {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  switch (issue.code) {
    case 'invalid_type':
      return `${fieldPath(path)}: expected ${issue.expected}, got ${describeValue(valueAt(input, path))}`;
    case 'unrecognized_keys':
      return issue.keys.map((key) => `${fieldPath([...path, key])}: ${unknownField(key, fields(path))}`).join('; ');
    default:
      return `${fieldPath(path)}: ${issue.message}`;
  }
}

function fieldPath(path: readonly (string | number)[]): string {
  if (path.length === 0) {
    return 'request';
  }
  return path.map((key, at) => (typeof key === 'number' ? `[${key}]` : at === 0 ? key : `.${key}`)).join('');
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') {
      return undefined;
    }
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) {
    return 'nothing (the field is missing)';
  }
  if (value === null) {
    return 'null';
  }
  return Array.isArray(value) ? 'array' : typeof value;
}
