/**
 * A Jupyter notebook (.ipynb) as its cells: where each cell's `source` sits in the file's
 * JSON, what it reads as decoded, and how the file writes it (one string, or one string
 * per line), so a changed source goes back JSON-escaped in the file's own layout. Located
 * with jsonc-parser, the parser VS Code uses for JSON; nothing else of the file is touched.
 */
import { parseTree, type Node } from 'jsonc-parser';

export interface NotebookCell {
  /** 0-based position in the `cells` array. */
  readonly index: number;
  /** nbformat 4.5 and later give each cell an id. */
  readonly id?: string;
  readonly cellType: string;
  /** How the file writes the source: one JSON string, or a list of strings (one per line). */
  readonly form: 'string' | 'lines';
  /** Offsets of the source's JSON value in the file (the string with its quotes, or the list with its brackets). */
  readonly valueStart: number;
  readonly valueEnd: number;
  /** Each string of the source as written: its offsets (quotes included) and its decoded value. */
  readonly pieces: readonly { readonly start: number; readonly end: number; readonly value: string }[];
  /** The source as a person reads it. */
  readonly text: string;
}

export interface Notebook {
  readonly cells: readonly NotebookCell[];
  /** The kernel's language (`metadata.kernelspec.language`, else `metadata.language_info.name`), lower-cased. */
  readonly language?: string;
  /** Between the strings of a source list, as the file separates them (`,\n    `), when a list has two. */
  readonly lineSeparator?: string;
  /** The file writes characters beyond ASCII as \uXXXX escapes (Python's json.dumps with ensure_ascii). */
  readonly asciiOnly: boolean;
}

/** The reason a text is not read as a notebook, or the notebook. */
export type NotebookReading =
  | { readonly ok: true; readonly notebook: Notebook }
  | { readonly ok: false; readonly reason: string; /** Where the shape breaks, when the JSON parsed. */ readonly offset?: number };

/**
 * Reads the cells of a notebook's text. A text that is not JSON, or has no `cells` list
 * of objects each with a `cell_type` and a string or string-list `source`, is not one.
 */
export function readNotebook(text: string): NotebookReading {
  let root: Node | undefined;
  try {
    root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  } catch {
    return { ok: false, reason: 'its JSON is nested too deeply to read' };
  }
  if (root?.type !== 'object') {
    return { ok: false, reason: 'it is not a JSON object' };
  }
  const cellsNode = property(root, 'cells');
  if (cellsNode?.type !== 'array') {
    return { ok: false, reason: 'it has no "cells" list', offset: cellsNode?.offset ?? root.offset };
  }
  const cells: NotebookCell[] = [];
  let lineSeparator: string | undefined;
  for (const [index, cellNode] of (cellsNode.children ?? []).entries()) {
    const cell = cellOf(cellNode, index);
    if (typeof cell === 'string') {
      return { ok: false, reason: `cell ${index} ${cell}`, offset: cellNode.offset };
    }
    cells.push(cell);
    if (lineSeparator === undefined && cell.form === 'lines' && cell.pieces.length > 1) {
      lineSeparator = text.slice(cell.pieces[0].end, cell.pieces[1].start);
    }
  }
  const metadata = property(root, 'metadata');
  const language = stringValue(property(property(metadata, 'kernelspec'), 'language')) ?? stringValue(property(property(metadata, 'language_info'), 'name'));
  return {
    ok: true,
    notebook: {
      cells,
      ...(language !== undefined ? { language: language.toLowerCase() } : {}),
      ...(lineSeparator !== undefined ? { lineSeparator } : {}),
      asciiOnly: writesAsciiOnly(text),
    },
  };
}

/** The cell, or what is wrong with it. */
function cellOf(node: Node, index: number): NotebookCell | string {
  if (node.type !== 'object') {
    return 'is not an object';
  }
  const cellType = stringValue(property(node, 'cell_type'));
  if (cellType === undefined) {
    return 'has no "cell_type" string';
  }
  const source = property(node, 'source');
  if (source === undefined) {
    return 'has no "source"';
  }
  const id = stringValue(property(node, 'id'));
  const base = { index, cellType, ...(id !== undefined ? { id } : {}), valueStart: source.offset, valueEnd: source.offset + source.length };
  if (source.type === 'string') {
    const piece = { start: source.offset, end: source.offset + source.length, value: source.value as string };
    return { ...base, form: 'string', pieces: [piece], text: piece.value };
  }
  if (source.type !== 'array' || !(source.children ?? []).every((child) => child.type === 'string')) {
    return 'has a "source" that is neither a string nor a list of strings';
  }
  const pieces = (source.children ?? []).map((child) => ({ start: child.offset, end: child.offset + child.length, value: child.value as string }));
  return { ...base, form: 'lines', pieces, text: pieces.map((piece) => piece.value).join('') };
}

function property(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') {
    return undefined;
  }
  const pair = node.children?.find((child) => child.children?.[0]?.value === key);
  return pair?.children?.[1];
}

function stringValue(node: Node | undefined): string | undefined {
  return node?.type === 'string' ? (node.value as string) : undefined;
}

/** No raw character beyond ASCII, and at least one \uXXXX escape of one: the writer escaped them all. */
function writesAsciiOnly(text: string): boolean {
  return !/[^\x00-\x7f]/.test(text) && /\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})/.test(text);
}

/** The lines of a source as a notebook's list holds them: each ends with its "\n", the last one may not. */
export function sourceLines(source: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = source.indexOf('\n'); at !== -1; at = source.indexOf('\n', at + 1)) {
    lines.push(source.slice(from, at + 1));
    from = at + 1;
  }
  if (from < source.length) {
    lines.push(source.slice(from));
  }
  return lines;
}

/** One string as the file writes strings: JSON-escaped, and ASCII only when the file is. */
export function encodedString(value: string, asciiOnly: boolean): string {
  const encoded = JSON.stringify(value);
  return asciiOnly ? encoded.replace(/[^\x00-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`) : encoded;
}

/**
 * A cell's new source, written as the file writes this cell: one string, or one string
 * per line. A line the cell already had keeps its bytes as written (whatever escapes
 * the file chose); `text` is the file, for the indentation of a list that grows.
 */
export function encodedSource(cell: NotebookCell, source: string, notebook: Notebook, text: string): string {
  if (cell.form === 'string') {
    return cell.text === source ? text.slice(cell.valueStart, cell.valueEnd) : encodedString(source, notebook.asciiOnly);
  }
  const written = new Map<string, string>();
  for (const piece of cell.pieces) {
    written.set(piece.value, text.slice(piece.start, piece.end));
  }
  const strings = sourceLines(source).map((line) => written.get(line) ?? encodedString(line, notebook.asciiOnly));
  if (strings.length === 0) {
    return '[]';
  }
  if (cell.pieces.length > 0) {
    const open = text.slice(cell.valueStart, cell.pieces[0].start);
    const close = text.slice(cell.pieces[cell.pieces.length - 1].end, cell.valueEnd);
    const separator = cell.pieces.length > 1 ? text.slice(cell.pieces[0].end, cell.pieces[1].start) : notebook.lineSeparator ?? `,${open.slice(1)}`;
    return `${open}${strings.join(separator)}${close}`;
  }
  // An empty list that gains lines: laid out as the file lays out the others, one level in from the key's line.
  const keyIndent = indentOfLineAt(text, cell.valueStart);
  const separator = notebook.lineSeparator ?? `,\n${keyIndent} `;
  const itemIndent = separator.slice(separator.lastIndexOf('\n') + 1);
  return `[\n${itemIndent}${strings.join(separator)}\n${keyIndent}]`;
}

function indentOfLineAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/**
 * Where a position of a cell's decoded source is in the file: the offset in the raw JSON
 * of that character (a character written as an escape starts at its backslash). The end
 * of the source maps to just before the closing quote of its last string.
 */
export function rawOffsetOf(cell: NotebookCell, text: string, decodedOffset: number): number {
  let remaining = decodedOffset;
  for (const [at, piece] of cell.pieces.entries()) {
    if (remaining >= piece.value.length && at < cell.pieces.length - 1) {
      remaining -= piece.value.length;
      continue;
    }
    let raw = piece.start + 1;
    const end = piece.end - 1;
    while (remaining > 0 && raw < end) {
      raw += text.charCodeAt(raw) !== 92 ? 1 : text.charCodeAt(raw + 1) === 117 ? 6 : 2;
      remaining--;
    }
    return raw;
  }
  return cell.valueStart;
}

/** The file with each changed source (by cell index) written in place in the file's layout, in one pass. */
export function withCellSources(text: string, notebook: Notebook, sources: readonly string[]): string {
  const parts: string[] = [];
  let from = 0;
  notebook.cells.forEach((cell, index) => {
    if (sources[index] !== cell.text) {
      parts.push(text.slice(from, cell.valueStart), encodedSource(cell, sources[index], notebook, text));
      from = cell.valueEnd;
    }
  });
  parts.push(text.slice(from));
  return parts.join('');
}
