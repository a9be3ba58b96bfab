/**
 * The one table of characters that pass for others (quotes, dashes, spaces,
 * invisible marks, Cyrillic and Greek letters, fullwidth forms, and the typographic
 * signs people type as several ASCII characters: "--" for a dash, "->" for an arrow,
 * "(c)" for the copyright sign), and the readings built on it. Both the
 * closest-match search and the diagnosis fold text through it.
 */

export interface Lookalike {
  /** The ASCII text the character stands in for; '' for invisible characters. */
  readonly ascii: string;
  readonly name: string;
  /** Other ASCII spellings people type for it, longest first ("---" and "--" for an em dash). */
  readonly typed?: readonly string[];
}

const LOOKALIKES: ReadonlyMap<number, Lookalike> = new Map<number, Lookalike>([
  [0x2018, { ascii: "'", name: 'LEFT SINGLE QUOTATION MARK' }],
  [0x2019, { ascii: "'", name: 'RIGHT SINGLE QUOTATION MARK' }],
  [0x201a, { ascii: "'", name: 'SINGLE LOW-9 QUOTATION MARK' }],
  [0x201b, { ascii: "'", name: 'SINGLE HIGH-REVERSED-9 QUOTATION MARK' }],
  [0x2032, { ascii: "'", name: 'PRIME' }],
  [0x00b4, { ascii: "'", name: 'ACUTE ACCENT' }],
  [0x201c, { ascii: '"', name: 'LEFT DOUBLE QUOTATION MARK' }],
  [0x201d, { ascii: '"', name: 'RIGHT DOUBLE QUOTATION MARK' }],
  [0x201e, { ascii: '"', name: 'DOUBLE LOW-9 QUOTATION MARK' }],
  [0x201f, { ascii: '"', name: 'DOUBLE HIGH-REVERSED-9 QUOTATION MARK' }],
  [0x2033, { ascii: '"', name: 'DOUBLE PRIME' }],
  [0x2010, { ascii: '-', name: 'HYPHEN' }],
  [0x2011, { ascii: '-', name: 'NON-BREAKING HYPHEN' }],
  [0x2012, { ascii: '-', name: 'FIGURE DASH' }],
  [0x2013, { ascii: '-', name: 'EN DASH', typed: ['--'] }],
  [0x2014, { ascii: '-', name: 'EM DASH', typed: ['---', '--'] }],
  [0x2015, { ascii: '-', name: 'HORIZONTAL BAR' }],
  [0x2212, { ascii: '-', name: 'MINUS SIGN' }],
  [0x2026, { ascii: '...', name: 'HORIZONTAL ELLIPSIS' }],
  [0x2024, { ascii: '.', name: 'ONE DOT LEADER' }],
  [0x2044, { ascii: '/', name: 'FRACTION SLASH' }],
  [0x2215, { ascii: '/', name: 'DIVISION SLASH' }],
  [0x037e, { ascii: ';', name: 'GREEK QUESTION MARK' }],
  [0x2192, { ascii: '->', name: 'RIGHTWARDS ARROW' }],
  [0x2190, { ascii: '<-', name: 'LEFTWARDS ARROW' }],
  [0x2194, { ascii: '<->', name: 'LEFT RIGHT ARROW' }],
  [0x21d2, { ascii: '=>', name: 'RIGHTWARDS DOUBLE ARROW' }],
  [0x2264, { ascii: '<=', name: 'LESS-THAN OR EQUAL TO' }],
  [0x2265, { ascii: '>=', name: 'GREATER-THAN OR EQUAL TO' }],
  [0x2260, { ascii: '!=', name: 'NOT EQUAL TO', typed: ['=/=', '/='] }],
  [0x00b1, { ascii: '+/-', name: 'PLUS-MINUS SIGN', typed: ['+-'] }],
  [0x00a9, { ascii: '(c)', name: 'COPYRIGHT SIGN', typed: ['(C)'] }],
  [0x00ae, { ascii: '(r)', name: 'REGISTERED SIGN', typed: ['(R)'] }],
  [0x2122, { ascii: '(tm)', name: 'TRADE MARK SIGN', typed: ['(TM)'] }],
  [0x0430, { ascii: 'a', name: 'CYRILLIC SMALL LETTER A' }],
  [0x0435, { ascii: 'e', name: 'CYRILLIC SMALL LETTER IE' }],
  [0x043e, { ascii: 'o', name: 'CYRILLIC SMALL LETTER O' }],
  [0x0440, { ascii: 'p', name: 'CYRILLIC SMALL LETTER ER' }],
  [0x0441, { ascii: 'c', name: 'CYRILLIC SMALL LETTER ES' }],
  [0x0445, { ascii: 'x', name: 'CYRILLIC SMALL LETTER HA' }],
  [0x03bf, { ascii: 'o', name: 'GREEK SMALL LETTER OMICRON' }],
  [0x00a0, { ascii: ' ', name: 'NO-BREAK SPACE' }],
  [0x1680, { ascii: ' ', name: 'OGHAM SPACE MARK' }],
  [0x2000, { ascii: ' ', name: 'EN QUAD' }],
  [0x2001, { ascii: ' ', name: 'EM QUAD' }],
  [0x2002, { ascii: ' ', name: 'EN SPACE' }],
  [0x2003, { ascii: ' ', name: 'EM SPACE' }],
  [0x2004, { ascii: ' ', name: 'THREE-PER-EM SPACE' }],
  [0x2005, { ascii: ' ', name: 'FOUR-PER-EM SPACE' }],
  [0x2006, { ascii: ' ', name: 'SIX-PER-EM SPACE' }],
  [0x2007, { ascii: ' ', name: 'FIGURE SPACE' }],
  [0x2008, { ascii: ' ', name: 'PUNCTUATION SPACE' }],
  [0x2009, { ascii: ' ', name: 'THIN SPACE' }],
  [0x200a, { ascii: ' ', name: 'HAIR SPACE' }],
  [0x202f, { ascii: ' ', name: 'NARROW NO-BREAK SPACE' }],
  [0x205f, { ascii: ' ', name: 'MEDIUM MATHEMATICAL SPACE' }],
  [0x3000, { ascii: ' ', name: 'IDEOGRAPHIC SPACE' }],
  [0x200b, { ascii: '', name: 'ZERO WIDTH SPACE' }],
  [0x200c, { ascii: '', name: 'ZERO WIDTH NON-JOINER' }],
  [0x200d, { ascii: '', name: 'ZERO WIDTH JOINER' }],
  [0x2060, { ascii: '', name: 'WORD JOINER' }],
  [0xfeff, { ascii: '', name: 'ZERO WIDTH NO-BREAK SPACE' }],
  [0x00ad, { ascii: '', name: 'SOFT HYPHEN' }],
]);

const FULLWIDTH_FIRST = 0xff01;
const FULLWIDTH_LAST = 0xff5e;
const FULLWIDTH_OFFSET = 0xfee0;

/** The ASCII stand-in and name of a look-alike character, or undefined for any other. */
export function lookalikeOf(code: number): Lookalike | undefined {
  if (code >= FULLWIDTH_FIRST && code <= FULLWIDTH_LAST) {
    const ascii = String.fromCharCode(code - FULLWIDTH_OFFSET);
    return { ascii, name: `FULLWIDTH FORM OF '${ascii}'` };
  }
  return LOOKALIKES.get(code);
}

/** Every ASCII spelling of a look-alike, longest first: its own and the ones people type. */
export function spellingsOf(lookalike: Lookalike): readonly string[] {
  return lookalike.typed === undefined ? [lookalike.ascii] : [...lookalike.typed, lookalike.ascii].sort((a, b) => b.length - a.length);
}

/** Whether a code is an invisible character (it stands for nothing): a zero-width space, a soft hyphen. */
export function isInvisible(code: number): boolean {
  return lookalikeOf(code)?.ascii === '';
}

/** Horizontal whitespace, including the Unicode spaces that pass for a space. */
export function isSpaceLike(code: number): boolean {
  return code === 32 || code === 9 || code === 11 || code === 12 || lookalikeOf(code)?.ascii === ' ';
}

export function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

/**
 * A line reduced to what survives whitespace and look-alike differences: runs of
 * whitespace become one space, look-alikes become their ASCII, the ends are trimmed.
 */
export function comparableKey(line: string): string {
  let key = '';
  let pendingSpace = false;
  for (let at = 0; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (isSpaceLike(code) || isLineBreak(code)) {
      pendingSpace = key.length > 0;
      continue;
    }
    const folded = lookalikeOf(code)?.ascii ?? line[at];
    if (pendingSpace && folded !== '') {
      key += ' ';
      pendingSpace = false;
    }
    key += folded;
  }
  return key;
}
