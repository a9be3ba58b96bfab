/**
 * Near misses that an agent makes and that need more than a one-for-one comparison:
 * a diff's markers left on old_string's lines, typographic signs typed as several ASCII
 * characters, invisible characters inside a line, lines added, removed, joined or split
 * in the file since it was read, and indentation-only misses wherever the lines stand.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { diagnoseMissAt } from '../../src/core/nearMiss/diagnosis';
import { explainMiss } from '../../src/core/nearMiss/explain';
import { LineIndex } from '../../src/core/text/lineIndex';
import type { Diagnosis } from '../../src/core/contract/schemas';

function diagnose(text: string, needle: string, newString = 'replacement that is nowhere'): Diagnosis | undefined {
  return diagnoseMissAt({ text, index: LineIndex.of(text), needle, newString })?.diagnosis;
}

function expectKind(diagnosis: Diagnosis | undefined, kind: Diagnosis['kind']): Diagnosis {
  assert.ok(diagnosis, 'expected a diagnosis');
  assert.equal(diagnosis.kind, kind, diagnosis.detail);
  return diagnosis;
}

function nearText(text: string, diagnosis: Diagnosis): string {
  const range = diagnosis.near_match;
  assert.ok(range, 'expected near_match');
  const index = LineIndex.of(text);
  return text.slice(index.lineStart(range.start_line - 1) + range.start_column - 1, index.lineStart(range.end_line - 1) + range.end_column - 1);
}

const RUST = [
  'impl Policy {',
  '    pub fn delay(&self, attempt: u32) -> Duration {',
  '        let factor = 2u32.pow(attempt);',
  '        self.base * factor',
  '    }',
  '}',
  '',
].join('\n');

describe('near misses, round four', () => {
  describe('DIFF_MARKERS', () => {
    it('names markers on old_string only, gives the near match without them, and says new_string has none', () => {
      const diagnosis = expectKind(diagnose(RUST, '-        let factor = 2u32.pow(attempt);\n-        self.base * factor', '        let factor = 2u32.pow(attempt.min(16));\n        self.base * factor'), 'DIFF_MARKERS');
      assert.equal(nearText(RUST, diagnosis), '        let factor = 2u32.pow(attempt);\n        self.base * factor');
      assert.equal(diagnosis.markers_in_new_string, false);
      assert.equal(diagnosis.line, 3);
      assert.ok(diagnosis.detail.includes('new_string carries no markers'), diagnosis.detail);
    });

    it('says so when new_string carries the markers too (context lines with a space, changed lines with "+")', () => {
      const diagnosis = expectKind(diagnose(RUST, '     pub fn delay(&self, attempt: u32) -> Duration {\n-        let factor = 2u32.pow(attempt);', '     pub fn delay(&self, attempt: u32) -> Duration {\n+        let factor = 2u32.pow(attempt.min(16));'), 'DIFF_MARKERS');
      assert.equal(diagnosis.markers_in_new_string, true);
      assert.ok(diagnosis.detail.includes('new_string carries the markers too'), diagnosis.detail);
      assert.equal(nearText(RUST, diagnosis), '    pub fn delay(&self, attempt: u32) -> Duration {\n        let factor = 2u32.pow(attempt);');
    });

    it('names one line from the "+" side of a diff, in a CRLF file', () => {
      const crlf = RUST.replace(/\n/g, '\r\n');
      const diagnosis = expectKind(diagnose(crlf, '+        self.base * factor', '+        self.base * factor * 2'), 'DIFF_MARKERS');
      assert.equal(diagnosis.line, 4);
      assert.equal(diagnosis.markers_in_new_string, true);
    });

    it('leaves context-only lines (a space each) to INDENTATION, and a Markdown list is no diff', () => {
      expectKind(diagnose(RUST, '         self.base * factor\n     }'), 'INDENTATION');
      assert.notEqual(diagnose('- one\n- two\n', '- one\n- three')?.kind, 'DIFF_MARKERS');
    });
  });

  describe('UNICODE_LOOKALIKE of more than one character', () => {
    const cases: [string, string][] = [['--', '\u2014'], ['---', '\u2014'], ['--', '\u2013'], ['...', '\u2026'], ['->', '\u2192'], ['<=', '\u2264'], ['>=', '\u2265'], ['!=', '\u2260'], ['(c)', '\u00a9'], ['=>', '\u21d2']];
    for (const [typed, sign] of cases) {
      it(`names "${typed}" typed for U+${sign.charCodeAt(0).toString(16).toUpperCase()} as one difference per sequence, both ways`, () => {
        const file = `# header\nnote: a ${sign} b, and c ${sign} d here\nlast line\n`;
        const sent = `note: a ${typed} b, and c ${typed} d here`;
        const diagnosis = expectKind(diagnose(file, sent), 'UNICODE_LOOKALIKE');
        assert.deepEqual(diagnosis.differences?.map((d) => [d.old_string_has, d.file_has, d.line]), [[typed, sign, 2], [typed, sign, 2]]);
        assert.equal(nearText(file, diagnosis), `note: a ${sign} b, and c ${sign} d here`);
        const reverse = expectKind(diagnose(file.split(sign).join(typed), sent.split(typed).join(sign)), 'UNICODE_LOOKALIKE');
        assert.deepEqual(reverse.differences?.map((d) => [d.old_string_has, d.file_has]), [[sign, typed], [sign, typed]]);
      });
    }

    it('mixes sequences and one-for-one look-alikes on one line and over two lines', () => {
      const file = 'intro\n- Update the changelog \u2014 every change\u2026\n- Coverage \u2265 80% on \u201cmain\u201d\n';
      const diagnosis = expectKind(diagnose(file, '- Update the changelog --- every change...\n- Coverage >= 80% on "main"'), 'UNICODE_LOOKALIKE');
      assert.deepEqual(diagnosis.differences?.map((d) => [d.old_string_line, d.old_string_has, d.file_has]), [
        [1, '---', '\u2014'], [1, '...', '\u2026'], [2, '>=', '\u2265'], [2, '"', '\u201c'], [2, '"', '\u201d'],
      ]);
    });
  });

  describe('invisible characters', () => {
    const invisible: [number, string][] = [[0xfeff, 'ZERO WIDTH NO-BREAK SPACE'], [0x200b, 'ZERO WIDTH SPACE'], [0x2060, 'WORD JOINER'], [0x00ad, 'SOFT HYPHEN']];
    for (const [code, name] of invisible) {
      const label = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
      it(`${label} inside a line, next to a space or inside a word, is one difference named by code point and name, and nothing else`, () => {
        const char = String.fromCharCode(code);
        for (const [file, sent, column] of [
          [`const a = 1;\nconst b${char} = 2;\n`, 'const b = 2;', 8],
          [`x\nKonto${char}einstellungen speichern\n`, 'Kontoeinstellungen speichern', 6],
          [`one\ntwo ${char}three\nfour\n`, 'one\ntwo three\nfour', 5],
        ] as const) {
          const diagnosis = expectKind(diagnose(file, sent), 'UNICODE_LOOKALIKE');
          assert.equal(diagnosis.differences?.length, 1, JSON.stringify(diagnosis.differences));
          assert.deepEqual([diagnosis.differences?.[0].old_string_has, diagnosis.differences?.[0].file_has, diagnosis.differences?.[0].column], ['', char, column]);
          assert.ok(diagnosis.detail.includes(`${label} ${name}`), diagnosis.detail);
          assert.ok(!diagnosis.detail.includes('also differs'), diagnosis.detail);
        }
      });
    }

    it('an invisible character that old_string has and the file has not is one difference too', () => {
      const diagnosis = expectKind(diagnose('alpha\nbeta gamma\n', 'beta \u200bgamma'), 'UNICODE_LOOKALIKE');
      assert.deepEqual(diagnosis.differences?.map((d) => [d.old_string_has, d.file_has]), [['\u200b', '']]);
    });
  });

  describe('CONTENT_MISMATCH: lines aligned, not paired by position', () => {
    const block = ['  def overdue(invoice)', '    @invoice = invoice', '    @customer = invoice.customer', '    @days = (today - invoice.due).to_i', '    mail(to: @customer.email, subject: "late")', '  end'];
    const file = ['class Mailer', ...block, 'end', ''].join('\n');

    it('a line added before the last line, which changed too: names both, pairs the changed line with its own, and covers the stretch', () => {
      const changed = file.replace('    mail(to: @customer.email', '    attachments["a.pdf"] = invoice.pdf\n    mail(to: @customer.billing_email');
      const diagnosis = expectKind(diagnose(changed, block.slice(2, 5).join('\n')), 'CONTENT_MISMATCH');
      assert.ok(diagnosis.detail.includes('file line 6 is not in old_string; line 3 of old_string differs from file line 7'), diagnosis.detail);
      assert.deepEqual([diagnosis.line, diagnosis.old_string_line], [7, 3]);
      assert.deepEqual(diagnosis.file_only_lines, [6]);
      assert.deepEqual(diagnosis.line_map, [{ old_string_line: 1, line: 4 }, { old_string_line: 2, line: 5 }, { old_string_line: 3, line: 7, differs: true }]);
      assert.equal(diagnosis.near_match?.end_line, 7);
    });

    it('a line removed and another changed: the removed line is old_string\'s own', () => {
      const changed = file.replace('    @customer = invoice.customer\n', '').replace('(today - invoice.due)', '(Date.current - invoice.due)');
      const diagnosis = expectKind(diagnose(changed, block.slice(1, 5).join('\n')), 'CONTENT_MISMATCH');
      assert.deepEqual(diagnosis.old_string_only_lines, [2]);
      assert.deepEqual(diagnosis.line_map?.find((entry) => entry.old_string_line === 3), { old_string_line: 3, line: 4, differs: true });
      assert.deepEqual([diagnosis.line, diagnosis.old_string_line], [4, 3]);
    });

    it('two lines the file joined, and one it split, each named as such', () => {
      const python = ['def export(rows, path):', '    with open(path, "w") as handle:', '        writer = csv.writer(', '            handle, delimiter=",")', '        for row in rows:', '            writer.writerow(row)', ''];
      const joined = python.join('\n').replace('csv.writer(\n            handle', 'csv.writer(handle').replace('for row in rows:', 'for row in sorted(rows):');
      const diagnosis = expectKind(diagnose(joined, python.slice(1, 6).join('\n')), 'CONTENT_MISMATCH');
      assert.ok(diagnosis.detail.includes('lines 2-3 of old_string are file line 3, joined; line 4 of old_string differs from file line 4'), diagnosis.detail);
      assert.deepEqual(diagnosis.line_map?.slice(1, 3), [{ old_string_line: 2, line: 3 }, { old_string_line: 3, line: 3 }]);
      const split = file.replace('    mail(to: @customer.email, subject: "late")', '    mail(\n      to: @customer.email,\n      subject: "late"\n    )').replace('(today - invoice.due)', '(now - invoice.due)');
      const splitDiagnosis = expectKind(diagnose(split, block.slice(1, 6).join('\n')), 'CONTENT_MISMATCH');
      assert.ok(splitDiagnosis.detail.includes('line 4 of old_string is file lines 6-9, split'), splitDiagnosis.detail);
      assert.deepEqual(splitDiagnosis.line_map?.find((entry) => entry.old_string_line === 4), { old_string_line: 4, line: 6, last_line: 9 });
    });

    it('several lines of old_string that one file line stands for (an alias expanded) between exact ends', () => {
      const yaml = 'base: &base\n  restart: always\n  logging: json\n\nservices:\n  api:\n    <<: *base\n    image: registry.example.com/api:1.8.2\n';
      const diagnosis = expectKind(diagnose(yaml, '  api:\n    restart: always\n    logging: json\n    image: registry.example.com/api:1.8.2'), 'CONTENT_MISMATCH');
      assert.deepEqual([diagnosis.file_only_lines, diagnosis.old_string_only_lines], [[7], [2, 3]]);
      assert.equal(nearText(yaml, diagnosis), '  api:\n    <<: *base\n    image: registry.example.com/api:1.8.2');
    });

    it('finds the changed line wherever lines were added around it (property)', () => {
      const lines = Array.from({ length: 12 }, (_, at) => `    value_${at} = compute_${at}(input, ${at * 7});`);
      fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 1, max: 3 }), (changedAt, insertAt, inserted) => {
        const fileLines = lines.map((line, at) => (at === changedAt ? line.replace('input', 'source') : line));
        fileLines.splice(insertAt, 0, ...Array.from({ length: inserted }, (_, k) => `    # note ${k} added later`));
        const text = ['def run(input):', ...fileLines, '    return value_0', ''].join('\n');
        const diagnosis = expectKind(diagnose(text, lines.join('\n')), 'CONTENT_MISMATCH');
        const changedFileLine = 2 + changedAt + (insertAt <= changedAt ? inserted : 0);
        assert.deepEqual([diagnosis.line, diagnosis.old_string_line], [changedFileLine, changedAt + 1]);
        assert.equal(diagnosis.line_map?.find((entry) => entry.differs)?.line, changedFileLine);
      }), { numRuns: 60 });
    });
  });

  describe('INDENTATION anywhere in a file', () => {
    const functions = Array.from({ length: 40 }, (_, at) => `exports.f${at} = function (val) {\n  var x${at} = val;\n  var y = x${at} + 1;\n  return y;\n};\n`);

    it('a one-line old_string of short, common words indented 4 where the file has 2, deep in the file', () => {
      const text = [...functions.slice(0, 30), 'exports.compile = function (val) {\n  var fn;\n  return fn;\n};\n', ...functions.slice(30)].join('\n');
      const { diagnosis, context } = explainMiss(text, LineIndex.of(text), '    var fn;', '    var fn = null;', { contextLines: 6, maxSnippetLineChars: 240 });
      const found = expectKind(diagnosis, 'INDENTATION');
      const line = text.split('\n').indexOf('  var fn;') + 1;
      assert.deepEqual([found.line, context.closest_line], [line, line]);
      assert.deepEqual(found.differences?.map((d) => [d.old_string_has, d.file_has]), [['    ', '  ']]);
    });

    it('any line or run of lines, re-indented, is INDENTATION at that line (property)', () => {
      const text = functions.join('\n');
      const fileLines = text.split('\n');
      const indented = fileLines.map((line, at) => ({ line, at })).filter(({ line }) => /^ +\S/.test(line));
      fc.assert(fc.property(fc.integer({ min: 0, max: indented.length - 1 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom('', '    ', '\t', ' '), (pick, count, indent) => {
        const first = indented[pick].at;
        const run = fileLines.slice(first, first + count).filter((line) => line.trim() !== '');
        const sent = run.map((line) => indent + line.trimStart()).join('\n');
        // A run that occurs more than once is placed at its first occurrence (and diagnosis.occurrences says so).
        fc.pre(!text.includes(sent) && run.length === count && text.indexOf(run.join('\n')) === text.lastIndexOf(run.join('\n')));
        const diagnosis = expectKind(diagnose(text, sent), 'INDENTATION');
        // A first line indented less may end the file's line as it is (old_string may start mid-line); the difference is then on the next.
        const firstFits = count > 1 && run[0].endsWith(indent + run[0].trimStart());
        assert.equal(diagnosis.line, first + 1 + (firstFits ? 1 : 0));
        assert.equal(nearText(text, diagnosis), run.join('\n'));
      }), { numRuns: 80 });
    });
  });
});
