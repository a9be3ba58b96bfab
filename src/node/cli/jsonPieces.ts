/**
 * The text of JSON.stringify(value, null, 2), as a sequence of pieces. A dry run of a
 * sweeping change carries diffs of tens of megabytes: written whole, the report would
 * exist three times over (the diff, its JSON text, and the bytes handed to stdout).
 * Here a long string is escaped a slice at a time, so nothing larger than a slice is
 * ever copied; a diff the engine hands over as DiffPieces is escaped as it is made, so
 * it never exists whole. Values are JSON data as the engine answers (no toJSON, no cycles).
 */
import { DiffPieces, isHighSurrogate } from '../../core/index';

/** Characters of a long string escaped at once. */
export const STRING_SLICE = 1 << 16;

const INDENT = '  ';

export function* jsonPieces(value: unknown, sliceLength = STRING_SLICE, indent = ''): Generator<string> {
  if (typeof value === 'string' && value.length > sliceLength) {
    yield* escapedInSlices([value], sliceLength);
  } else if (value instanceof DiffPieces) {
    yield* escapedInSlices(value, sliceLength);
  } else if (Array.isArray(value)) {
    yield* container('[', ']', value.map((item) => ['', item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item] as const), sliceLength, indent);
  } else if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, member]) => member !== undefined && typeof member !== 'function' && typeof member !== 'symbol');
    yield* container('{', '}', members.map(([key, member]) => [`${JSON.stringify(key)}: `, member] as const), sliceLength, indent);
  } else {
    yield JSON.stringify(value) ?? 'null';
  }
}

function* container(open: string, close: string, members: readonly (readonly [string, unknown])[], sliceLength: number, indent: string): Generator<string> {
  if (members.length === 0) {
    yield `${open}${close}`;
    return;
  }
  const inner = indent + INDENT;
  for (const [index, [label, member]] of members.entries()) {
    yield `${index === 0 ? open : ','}\n${inner}${label}`;
    yield* jsonPieces(member, sliceLength, inner);
  }
  yield `\n${indent}${close}`;
}

/**
 * The JSON form of the string its parts make, a slice at a time. A slice never ends
 * between the two halves of a surrogate pair, which JSON.stringify would escape apart;
 * nor does a part (DiffPieces ends each on a whole line).
 */
function* escapedInSlices(parts: Iterable<string>, sliceLength: number): Generator<string> {
  yield '"';
  for (const part of parts) {
    for (let start = 0; start < part.length;) {
      let end = Math.min(start + sliceLength, part.length);
      if (end < part.length && isHighSurrogate(part.charCodeAt(end - 1))) {
        end++;
      }
      yield JSON.stringify(part.slice(start, end)).slice(1, -1);
      start = end;
    }
  }
  yield '"';
}
