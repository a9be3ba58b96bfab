/**
 * Line endings. A file's dominant ending (LF or CRLF) is what the newlines in
 * old_string and new_string become, so a caller never has to know it.
 */
import type { TextView } from './editedText';

export type Eol = '\n' | '\r\n';

/** The dominant line ending of a text; a text with no CRLF at all is LF. */
export function detectEol(text: string): Eol {
  if (text.indexOf('\r\n') === -1) {
    return '\n';
  }
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) {
      crlf++;
    } else {
      lf++;
    }
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** `value` with every "\r\n" and lone "\n" written as `eol`; a lone "\r" is not a newline and stays. */
export function withEol(value: string, eol: Eol): string {
  if (value.indexOf('\n') === -1) {
    return value;
  }
  return value.replace(/\r?\n/g, () => eol);
}

export function eolName(eol: Eol): 'LF' | 'CRLF' {
  return eol === '\n' ? 'LF' : 'CRLF';
}

export function endsWithNewline(text: Pick<TextView, 'length' | 'charCodeAt'>): boolean {
  return text.length > 0 && text.charCodeAt(text.length - 1) === 0x0a;
}
