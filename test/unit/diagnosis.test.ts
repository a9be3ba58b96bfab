import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { diagnoseMiss, hintsForDiagnosis } from '../../src/core/nearMiss/diagnosis';
import { LineIndex } from '../../src/core/text/lineIndex';
import { diagnosisKinds, type Diagnosis } from '../../src/core/contract/schemas';
import { CRLF_FILE, MIXED_EOL, NO_FINAL_NEWLINE, TAB_INDENTED, numberedLines } from './fixtures/explain/texts';

function diagnose(text: string, needle: string, newString = 'replacement that is nowhere'): Diagnosis | undefined {
  return diagnoseMiss({ text, index: LineIndex.of(text), needle, newString });
}

function assertKind(diagnosis: Diagnosis | undefined, kind: Diagnosis['kind'], ...detailParts: string[]): void {
  assert.ok(diagnosis, 'expected a diagnosis');
  assert.equal(diagnosis.kind, kind, diagnosis.detail);
  for (const part of detailParts) {
    assert.ok(diagnosis.detail.includes(part), `detail "${diagnosis.detail}" should mention "${part}"`);
  }
}

describe('diagnoseMiss', () => {
  describe('INDENTATION', () => {
    it('names spaces where the file indents with a tab', () => {
      assertKind(diagnose(TAB_INDENTED, 'export function greet(name: string): string {\n    const message'),
        'INDENTATION', 'line 2 of old_string', '4 spaces', 'a tab', 'line 4');
    });

    it('names indentation on a CRLF file once old_string uses CRLF too', () => {
      assertKind(diagnose(CRLF_FILE, 'if (ready) {\r\n\tstart();\r\n}'), 'INDENTATION', 'a tab', '4 spaces', 'line 3');
    });

    it('wins over other whitespace differences on the same lines', () => {
      const diagnosis = diagnose(TAB_INDENTED, '  return  message;\n}');
      assertKind(diagnosis, 'INDENTATION', 'line 1 of old_string', 'also differs in other whitespace');
    });

    it('finds indentation differences deep in a 5,000-line text', () => {
      const text = numberedLines(5000).replace('line 04000', '\tline 04000');
      assertKind(diagnose(text, '  line 04000 value=4000;\nline 04001'), 'INDENTATION', 'line 4000');
    });
  });

  describe('WHITESPACE_ONLY', () => {
    it('names a run of spaces of another length inside a line', () => {
      assertKind(diagnose(TAB_INDENTED, 'export const total = 5; // five'), 'WHITESPACE_ONLY', 'a space', '2 spaces', 'line 9, column 24');
    });

    it('names a tab where the file has a space inside a line', () => {
      assertKind(diagnose(TAB_INDENTED, 'export\tconst range'), 'WHITESPACE_ONLY', 'a tab', 'a space', 'line 8');
    });

    it('names trailing whitespace', () => {
      assertKind(diagnose(TAB_INDENTED, '\treturn message; \n}'), 'WHITESPACE_ONLY', 'ends with a space', 'line 5 ends with no whitespace');
    });

    it('names a final line break that the file does not have', () => {
      assertKind(diagnose(NO_FINAL_NEWLINE, 'two\nthree\n'), 'WHITESPACE_ONLY', 'ends at line 3 without one');
    });
  });

  describe('UNICODE_LOOKALIKE', () => {
    it('names an ASCII apostrophe where the file has a right single quotation mark', () => {
      assertKind(diagnose(TAB_INDENTED, "const message = 'it's ' + name;"),
        'UNICODE_LOOKALIKE', "an ASCII apostrophe (')", 'U+2019 RIGHT SINGLE QUOTATION MARK', 'line 4');
    });

    it('names smart quotes in old_string where the file has ASCII quotes', () => {
      assertKind(diagnose(TAB_INDENTED, 'import { readFile } from \u201cfs\u201d;'), 'UNICODE_LOOKALIKE', 'U+201C LEFT DOUBLE QUOTATION MARK', 'line 1, column 26', '1 more difference');
    });

    it('names curly double quotes in the file when old_string has straight ones around a word', () => {
      assertKind(diagnose('She said \u201chello\u201d and it\u2019s fine.\n', 'She said "hello"'),
        'UNICODE_LOOKALIKE', 'an ASCII double quote', 'U+201C LEFT DOUBLE QUOTATION MARK', '1 more difference');
    });

    it('names an en dash and an em dash', () => {
      assertKind(diagnose(TAB_INDENTED, 'export const range = "1-5";'), 'UNICODE_LOOKALIKE', 'U+2013 EN DASH', 'hyphen-minus');
      assertKind(diagnose(TAB_INDENTED, 'export const range = "1\u20145";'), 'UNICODE_LOOKALIKE', 'U+2014 EM DASH', 'U+2013 EN DASH');
    });

    it('counts a no-break space as a look-alike, not as whitespace', () => {
      assertKind(diagnose(TAB_INDENTED, 'export\u00a0const total'), 'UNICODE_LOOKALIKE', 'U+00A0 NO-BREAK SPACE', 'a space');
      const fileWithNbsp = 'let\u00a0x = 1;\n';
      assertKind(diagnose(fileWithNbsp, 'let x = 1;'), 'UNICODE_LOOKALIKE', 'a space where the file has U+00A0 NO-BREAK SPACE');
    });

    it('names an invisible zero-width space and a one-character ellipsis', () => {
      assertKind(diagnose(TAB_INDENTED, 'export const\u200b total'), 'UNICODE_LOOKALIKE', 'U+200B ZERO WIDTH SPACE', 'nothing');
      assertKind(diagnose('wait...\n', 'wait\u2026'), 'UNICODE_LOOKALIKE', 'U+2026 HORIZONTAL ELLIPSIS', 'three ASCII full stops');
    });

    it('wins over indentation', () => {
      assertKind(diagnose(TAB_INDENTED, "    const message = 'it's ' + name;\n\treturn"), 'UNICODE_LOOKALIKE', 'also differs in indentation');
    });
  });

  describe('ESCAPED_NEWLINES', () => {
    it('names literal \\n sequences where the file has line breaks', () => {
      assertKind(diagnose(TAB_INDENTED, '\treturn message;\\n}\\n\\nexport const range'), 'ESCAPED_NEWLINES', '3 literal \\n', 'line breaks', 'file line 5');
    });

    it('names literal \\t sequences where the file has tabs', () => {
      assertKind(diagnose(TAB_INDENTED, '\\treturn message;'), 'ESCAPED_NEWLINES', '1 literal \\t', 'tabs');
    });

    it('leaves a legitimate backslash-n in code alone when something else differs', () => {
      const text = 'console.log("done\\n");\nnext();\n';
      assertKind(diagnose(text, 'console.log("done\\n");\n  next();'), 'INDENTATION');
    });
  });

  describe('EOL_MISMATCH', () => {
    it('names a CRLF line in a file that mostly uses LF', () => {
      assertKind(diagnose(MIXED_EOL, 'beta\ngamma'), 'EOL_MISMATCH', 'file line 2 ends with CRLF', 'old_string has LF');
    });

    it('names a lone CR', () => {
      assertKind(diagnose(MIXED_EOL, 'delta\nepsilon'), 'EOL_MISMATCH', 'a lone CR', 'file line 4');
    });

    it('wins over indentation and escapes', () => {
      assertKind(diagnose(MIXED_EOL, '  beta\ngamma'), 'EOL_MISMATCH', 'also differs in indentation');
      assertKind(diagnose(MIXED_EOL, 'alpha\\nbeta\ngamma'), 'EOL_MISMATCH', 'also differs in literal escapes');
    });
  });

  describe('ALREADY_APPLIED', () => {
    it('is named when new_string occurs and old_string does not', () => {
      assertKind(diagnose(TAB_INDENTED, 'return greeting;', 'return message;'), 'ALREADY_APPLIED', 'line 5, column 2');
    });

    it('comes before every near-miss kind', () => {
      assertKind(diagnose(TAB_INDENTED, '  return message;', '\treturn message;'), 'ALREADY_APPLIED');
    });

    it('is not named for a blank or very short new_string, which occurs by chance', () => {
      assert.equal(diagnose(TAB_INDENTED, 'no such text here at all', '\n'), undefined);
      assert.equal(diagnose(TAB_INDENTED, 'no such text here at all', '}'), undefined);
      assertKind(diagnose(TAB_INDENTED, 'no such text here at all', 'fs"'), 'ALREADY_APPLIED');
    });

    it('gives way to a near miss when new_string is part of old_string', () => {
      // Deleting a comment: the remaining code occurs, but old_string nearly does too.
      assertKind(diagnose(TAB_INDENTED, 'export const total = 5; // five', 'export const total = 5;'), 'WHITESPACE_ONLY');
    });
  });

  it('names nothing when the text really differs', () => {
    assert.equal(diagnose(TAB_INDENTED, 'export function greet(name: number): string {'), undefined);
    assert.equal(diagnose(TAB_INDENTED, 'zzzz qqqq'), undefined);
  });

  it('names nothing when old_string occurs', () => {
    assert.equal(diagnose(TAB_INDENTED, '\treturn message;'), undefined);
  });

  it('uses the closest match it is given', () => {
    const text = TAB_INDENTED;
    const index = LineIndex.of(text);
    const offset = text.indexOf('\treturn');
    const diagnosis = diagnoseMiss({ text, index, needle: '  return message;', newString: 'return nothing;', closest: { offset, length: 16 } });
    assertKind(diagnosis, 'INDENTATION');
  });

  it('never writes out a corrected old_string', () => {
    const needles = ["const message = 'it's ' + name;", '    const message', 'export const total = 5; // five', '\treturn message;\\n}'];
    for (const needle of needles) {
      const diagnosis = diagnose(TAB_INDENTED, needle);
      assert.ok(diagnosis);
      for (const fileLine of TAB_INDENTED.split('\n').filter((line) => line.trim().length > 3)) {
        assert.ok(!diagnosis.detail.includes(fileLine.trim()), `detail "${diagnosis.detail}" quotes "${fileLine}"`);
      }
    }
  });

  describe('names a difference planted in a copied old_string', () => {
    /** Distinct lines with random indentation, and a range of them to copy as old_string. */
    const fileAndRange = fc.record({
      indents: fc.array(fc.constantFrom('', '\t', '\t\t', '  ', '    '), { minLength: 3, maxLength: 12 }),
      words: fc.array(fc.constantFrom('alpha', 'beta', 'gamma', "it's", 'x = 1;', 'f(a, b)'), { minLength: 1, maxLength: 3 }),
      from: fc.nat(),
      count: fc.integer({ min: 2, max: 4 }),
    }).map(({ indents, words, from, count }) => {
      const lines = indents.map((indent, n) => `${indent}line${n} ${words.join(' ')}`);
      const first = from % (lines.length - 1);
      const last = Math.min(lines.length - 1, first + count - 1);
      return { lines, first, last };
    });

    function checkPlanted(lines: string[], needle: string, kind: Diagnosis['kind'], text = lines.join('\n') + '\n'): void {
      fc.pre(!text.includes(needle));
      const diagnosis = diagnose(text, needle);
      assert.equal(diagnosis?.kind, kind, `${JSON.stringify(needle)} in ${JSON.stringify(text)}: ${diagnosis?.detail}`);
    }

    it('indentation changed on one line', () => {
      fc.assert(fc.property(fileAndRange, fc.nat(), fc.constantFrom('\t', '  ', '   ', ' \t'), ({ lines, first, last }, pick, indent) => {
        const copied = lines.slice(first, last + 1);
        const changed = pick % copied.length;
        copied[changed] = indent + copied[changed].trimStart();
        checkPlanted(lines, copied.join('\n'), 'INDENTATION');
      }), { numRuns: 300 });
    });

    it('a look-alike quote or space', () => {
      fc.assert(fc.property(fileAndRange, fc.constantFrom("'\u2019", ' \u00a0'), ({ lines, first, last }, swap) => {
        const needle = lines.slice(first, last + 1).join('\n');
        checkPlanted(lines, needle.replace(swap[0], swap[1]), 'UNICODE_LOOKALIKE');
      }), { numRuns: 300 });
    });

    it('line breaks written as literal \\n', () => {
      fc.assert(fc.property(fileAndRange, ({ lines, first, last }) => {
        const needle = lines.slice(first, last + 1).join('\\n');
        checkPlanted(lines, needle, 'ESCAPED_NEWLINES');
      }), { numRuns: 300 });
    });

    it('one CRLF line inside an LF file', () => {
      fc.assert(fc.property(fileAndRange, fc.nat(), ({ lines, first, last }, pick) => {
        const crlfLine = first + (pick % (last - first));
        const text = lines.map((line, n) => line + (n === crlfLine ? '\r\n' : '\n')).join('');
        checkPlanted(lines, lines.slice(first, last + 1).join('\n'), 'EOL_MISMATCH', text);
      }), { numRuns: 300 });
    });
  });

  it('never throws on arbitrary strings', () => {
    const pieces = fc.oneof(
      fc.constantFrom('a', 'b', ' ', '  ', '\t', '\n', '\r', '\r\n', '\\n', '\\t', '\u2019', '\u2013', '\u00a0', '\u200b', '\u2026', '...', '\u{1F600}', 'e\u0301'),
      fc.string({ maxLength: 3 }),
    );
    const str = fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(fc.property(str, str, str, (text, needle, newString) => {
      const diagnosis = diagnoseMiss({ text, index: LineIndex.of(text), needle, newString });
      if (diagnosis) {
        assert.ok((diagnosisKinds as readonly string[]).includes(diagnosis.kind));
        assert.ok(diagnosis.detail.length > 0);
        assert.ok(needle.length > 0 && !text.includes(needle), 'a diagnosis only for a real miss');
      }
    }), { numRuns: 2000 });
  });
});

describe('hintsForDiagnosis', () => {
  it('has general hints for every kind', () => {
    for (const kind of diagnosisKinds) {
      const hints = hintsForDiagnosis(kind);
      assert.ok(hints.length > 0, kind);
      assert.ok(hints.every((hint) => hint.length > 10 && !hint.includes('old_string:')), kind);
    }
  });

  it('tells the writer of escaped newlines to use real line breaks', () => {
    assert.ok(hintsForDiagnosis('ESCAPED_NEWLINES').some((hint) => hint.includes('real characters')));
  });
});
