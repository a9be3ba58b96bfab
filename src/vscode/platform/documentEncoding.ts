/**
 * The encoding VS Code reads a closed file in, chosen as the Node store chooses it: a
 * byte order mark decides, then valid UTF-8, then the encoding the request names, then
 * the user's `files.encoding` for that file; `files.autoGuessEncoding`, where the user
 * turned it on, lets VS Code guess for bytes that are not UTF-8. VS Code's own converters
 * (workspace.decode and workspace.encode) read and write the text, and the text is proved
 * to encode back to the bytes read before it is edited. An open document is already
 * decoded: it is edited as it is, in its own encoding.
 * Not translated: its failure details and hints go into the envelope, read by models in the core's language.
 */
import * as vscode from 'vscode';
import type { StoredEncoding, StoreFailure } from '../../core/index';
import { binaryReason, firstDifference, guessedNames, guessEncoding, guessLead } from '../../shared/textEncodings';

/** VS Code's encoding ids (TextDocument.encoding), as its API documents them. */
const VSCODE_ENCODINGS = new Set([
  'utf8', 'utf8bom', 'utf16le', 'utf16be', 'windows1252', 'iso88591', 'iso88593', 'iso885915', 'macroman', 'cp437', 'windows1256',
  'iso88596', 'windows1257', 'iso88594', 'iso885914', 'windows1250', 'iso88592', 'cp852', 'windows1251', 'cp866', 'cp1125', 'iso88595',
  'koi8r', 'koi8u', 'iso885913', 'windows1253', 'iso88597', 'windows1255', 'iso88598', 'iso885910', 'iso885916', 'windows1254',
  'iso88599', 'windows1258', 'gbk', 'gb18030', 'cp950', 'big5hkscs', 'shiftjis', 'eucjp', 'euckr', 'windows874', 'iso885911',
  'koi8ru', 'koi8t', 'gb2312', 'cp865', 'cp850',
]);

/** Other names callers use for VS Code's encodings (bare: lower case, no punctuation). */
const ALIASES: Readonly<Record<string, string>> = {
  latin1: 'iso88591', l1: 'iso88591', cp1252: 'windows1252', cp1251: 'windows1251', cp1250: 'windows1250', sjis: 'shiftjis',
  cp932: 'shiftjis', windows31j: 'shiftjis', cp936: 'gbk', cp949: 'euckr', big5: 'cp950', utf16: 'utf16le', ucs2: 'utf16le',
};

const UNICODE = new Set(['utf8', 'utf8bom', 'utf16le', 'utf16be']);

const BYTE_ORDER_MARKS = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf8bom' },
  { bytes: [0xff, 0xfe], encoding: 'utf16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf16be' },
] as const;

/** VS Code's id for an encoding's name ("ISO-8859-1" and "latin1" are "iso88591"), or undefined when VS Code has no such encoding. */
export function vscodeEncodingId(name: string): string | undefined {
  const bare = name.toLowerCase().replace(/[^0-9a-z]/g, '');
  const id = ALIASES[bare] ?? bare;
  return VSCODE_ENCODINGS.has(id) ? id : undefined;
}

/** What to open a closed file in: an encoding id, or `guess` to let VS Code guess as the user asked it to. */
export type EncodingChoice = { readonly ok: true; readonly encoding: string | 'guess' } | StoreFailure;

export function chooseEncoding(bytes: Uint8Array, uri: vscode.Uri, requested: string | undefined): EncodingChoice {
  const marked = BYTE_ORDER_MARKS.find((mark) => mark.bytes.every((byte, index) => bytes[index] === byte));
  if (marked) {
    return { ok: true, encoding: marked.encoding };
  }
  const binary = binaryReason(bytes);
  if (isUtf8(bytes)) {
    if (binary !== undefined && bytes.includes(0)) {
      return fail(`the file ${binary}, so it is binary, not text`);
    }
    // ASCII reads the same in UTF-8 and in every encoding that extends it: the one the request names decides what an edit's new characters are written as.
    const named = requested !== undefined && bytes.every((byte) => byte < 0x80) ? vscodeEncodingId(requested) : undefined;
    return { ok: true, encoding: named !== undefined && !UNICODE.has(named) ? named : 'utf8' };
  }
  if (binary !== undefined) {
    return fail(`the file ${binary}, so it is binary, not text`);
  }
  if (requested !== undefined) {
    const id = vscodeEncodingId(requested);
    return id ? { ok: true, encoding: id } : fail(`"${requested}" is not an encoding VS Code knows; name one such as windows1252, iso88591, shiftjis, gbk, euckr or koi8r`, bytes);
  }
  const files = vscode.workspace.getConfiguration('files', uri);
  const configured = vscodeEncodingId(files.get<string>('encoding') ?? 'utf8');
  if (configured !== undefined && !UNICODE.has(configured)) {
    return { ok: true, encoding: configured };
  }
  if (files.get<boolean>('autoGuessEncoding') === true) {
    return { ok: true, encoding: 'guess' };
  }
  return fail('the file is text, but not UTF-8, and no encoding was set for it', bytes);
}

/**
 * Why `text` (a document VS Code decoded in `encoding` from `bytes`) would not be written
 * back as those bytes, or undefined when it would. Valid UTF-8 has exactly one encoding
 * back, so it needs no second pass.
 */
export async function roundTripProblem(bytes: Uint8Array, text: string, encoding: string): Promise<StoreFailure | undefined> {
  if (encoding === 'utf8' || encoding === 'utf8bom') {
    // Only a guess can open bytes that are not UTF-8 as UTF-8.
    return isUtf8(bytes) ? undefined : fail('the file is not valid UTF-8, and VS Code guessed no other encoding for it', bytes);
  }
  const again = await vscode.workspace.encode(text, { encoding });
  // VS Code writes a UTF-16 file with its byte order mark; the bytes read may or may not have one.
  const mark = BYTE_ORDER_MARKS.find((candidate) => candidate.encoding === encoding);
  const body = (data: Uint8Array): Uint8Array => (mark && mark.bytes.every((byte, index) => data[index] === byte) ? data.subarray(mark.bytes.length) : data);
  if (sameBytes(body(bytes), body(again))) {
    return text.includes('\0') ? fail(`the file holds NUL characters in ${encoding}, so it is binary, not text`) : undefined;
  }
  return fail(`the file is not ${encoding} text: its bytes do not read as ${encoding} and back to themselves, so it could not be written back unchanged`, bytes);
}

/** The encoding a document is edited in, for the engine: absent for UTF-8; UTF-16 holds every character. */
export function storedEncoding(encoding: string): StoredEncoding | undefined {
  if (encoding === 'utf8' || encoding === 'utf8bom') {
    return undefined;
  }
  return {
    name: encoding,
    firstUnrepresentable: UNICODE.has(encoding) ? () => -1 : async (text) => {
      const back = await vscode.workspace.decode(await vscode.workspace.encode(text, { encoding }), { encoding });
      return firstDifference(text, back);
    },
  };
}

/** Whether a file in this encoding starts with a byte order mark when VS Code writes it. */
export function writesByteOrderMark(encoding: string): boolean {
  return encoding === 'utf8bom' || encoding === 'utf16le' || encoding === 'utf16be';
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** INVALID_ENCODING; with the bytes of text, the hint names the likely encodings and where to set one. */
function fail(detail: string, textBytes?: Uint8Array): StoreFailure {
  const guess = textBytes ? guessEncoding(textBytes, (name) => vscodeEncodingId(name) !== undefined) : undefined;
  const ids = guess?.names.map((name) => vscodeEncodingId(name) ?? name) ?? ['windows1252'];
  const likely = guess ? `; it looks like ${guessedNames(guess)} text` : '';
  const lead = !guess ? 'Name the file\'s encoding: add' : guess.apart ? `${guessLead(guess)}. Add the one that reads the file as it should:` : `${guessLead(guess)}: add`;
  const named = (setting: string): string => ids.map((id) => `${setting} "${id}"`).join(' or ');
  return {
    ok: false, code: 'INVALID_ENCODING', detail: `${detail}${likely}`,
    ...(textBytes ? { hints: [`${lead} ${named('"encoding":')} beside its file_path in the request, or ask the user to set ${named('files.encoding to')} for the file`] } : {}),
  };
}
