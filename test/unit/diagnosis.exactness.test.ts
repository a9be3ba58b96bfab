/**
 * What an envelope must say for a reader to act without guessing: each match of an ambiguous
 * old_string names the line that tells it apart; a whitespace or look-alike miss lists every
 * difference with both sides' text; every file of a request that could not be edited is
 * explained; text a notebook holds one JSON string per line is located.
 */
import * as assert from 'node:assert/strict';
import { failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';
import fc from 'fast-check';

const FILE = '/w/src/data.txt';

async function envelopeFor(files: Record<string, string>, input: unknown, tool = 'multi_edit') {
  const store = new MemoryStore(files);
  store.addDirectory('/w/src');
  return failureOf(await run(tool, input, { store }));
}

const single = (oldString: string, file = FILE) => ({ file_path: file, edits: [{ old_string: oldString, new_string: `${oldString}!` }] });

const occurrences = (text: string, piece: string): number => text.split(piece).length - 1;

describe('ambiguous matches: what tells each apart', () => {
  const toml = '[tool.cache]\nenabled = true\nttl = 600\n\n[tool.telemetry]\nenabled = true\nendpoint = "x"\n';

  it('names the nearest line above and below that no other match has at that distance', async () => {
    const envelope = await envelopeFor({ [FILE]: toml }, single('enabled = true'));
    assert.equal(envelope.error_code, 'AMBIGUOUS_MATCH');
    const [first, second] = envelope.context?.match_locations ?? [];
    assert.deepEqual(first.distinct_above, { line: 1, text: '[tool.cache]' });
    assert.deepEqual(first.distinct_below, { line: 3, text: 'ttl = 600' });
    assert.deepEqual(second.distinct_above, { line: 5, text: '[tool.telemetry]' });
    assert.deepEqual(second.distinct_below, { line: 7, text: 'endpoint = "x"' });
  });

  it('reaches a distinct line further than the usual 3 lines, and the lines from it to the match occur once', async () => {
    const block = (name: string) => `[${name}]\nx = 1\ny = 2\nz = 3\nw = 4\nenabled = true\n`;
    const text = `${block('a')}${block('b')}`;
    const envelope = await envelopeFor({ [FILE]: text }, single('enabled = true'));
    const locations = envelope.context?.match_locations ?? [];
    assert.deepEqual(locations.map((location) => location.distinct_above), [{ line: 1, text: '[a]' }, { line: 7, text: '[b]' }]);
    for (const location of locations) {
      const lines = location.snippet.split('\n');
      const above = location.distinct_above;
      assert.ok(above && location.start_line !== undefined && location.start_line <= above.line, JSON.stringify(location));
      const grown = lines.slice(above.line - location.start_line, location.line - location.start_line + 1).join('\n');
      assert.equal(occurrences(text, grown), 1, grown);
    }
  });

  it('names no line when two matches share a line; a blank line or the end of the file tells nothing apart', async () => {
    const sameLine = await envelopeFor({ [FILE]: 'a = f(x) + f(x)\n' }, single('f(x)'));
    assert.ok(sameLine.context?.match_locations?.every((location) => !location.distinct_above && !location.distinct_below));
    const twins = await envelopeFor({ [FILE]: 'k = 1\nk = 1\n' }, single('k = 1'));
    const [first, second] = twins.context?.match_locations ?? [];
    assert.deepEqual([first.distinct_above, first.distinct_below], [undefined, { line: 2, text: 'k = 1' }]);
    assert.deepEqual([second.distinct_above, second.distinct_below], [{ line: 1, text: 'k = 1' }, undefined]);
    const blanks = await envelopeFor({ [FILE]: 'x\n\nk\n\ny\n\nk\n\n' }, single('k'));
    assert.deepEqual(blanks.context?.match_locations?.map((location) => [location.distinct_above?.line, location.distinct_below?.line]), [[1, 5], [5, undefined]]);
  });
});

describe('whitespace and look-alike misses: every difference, both sides', () => {
  it('a tab inside a line is named at its column, not as the end of the line', async () => {
    const envelope = await envelopeFor({ [FILE]: 'sku\tname\nA-101\tFilter papers x100\t450\tEUR\n' }, single('A-101 Filter papers x100 450 EUR'));
    assert.equal(envelope.diagnosis?.kind, 'WHITESPACE_ONLY');
    assert.match(envelope.diagnosis?.detail ?? '', /line 1 of old_string has a space where the file has a tab at line 2, column 6/);
    assert.doesNotMatch(envelope.diagnosis?.detail ?? '', /ends with/);
    assert.deepEqual(envelope.diagnosis?.differences?.map((d) => [d.old_string_column, d.column, d.old_string_has, d.file_has]), [
      [6, 6, ' ', '\t'], [25, 25, ' ', '\t'], [29, 29, ' ', '\t'],
    ]);
  });

  it('a run of spaces that pads a table cell names the column it keeps', async () => {
    const table = '| Name   | Status    |\n|--------|-----------|\n| Linux  | supported |\n| Win    | beta      |\n';
    const envelope = await envelopeFor({ [FILE]: table }, single('| Win | beta |'));
    assert.equal(envelope.diagnosis?.kind, 'WHITESPACE_ONLY');
    assert.deepEqual(envelope.diagnosis?.differences, [
      { old_string_line: 1, old_string_column: 6, line: 4, column: 6, old_string_has: ' ', file_has: '    ', aligned_column: 10 },
      { old_string_line: 1, old_string_column: 13, line: 4, column: 16, old_string_has: ' ', file_has: '      ', aligned_column: 22 },
    ]);
  });

  it('a non-breaking space is listed once, with the character the file has', async () => {
    const envelope = await envelopeFor({ [FILE]: 'Une question\u00a0? Écrivez-nous.\n' }, single('Une question ? Écrivez-nous.'));
    assert.equal(envelope.diagnosis?.kind, 'UNICODE_LOOKALIKE');
    assert.deepEqual(envelope.diagnosis?.differences, [
      { old_string_line: 1, old_string_column: 13, line: 1, column: 13, old_string_has: ' ', file_has: '\u00a0' },
    ]);
  });
});

describe('every file of a request that could not be edited is explained', () => {
  it('a later file that does not exist gets its code, hints and nearby names in files_to_fix', async () => {
    const files = { '/w/src/lexer.cpp': '\tif (a) {\n\t\treturn b;\n\t}\n', '/w/src/tokens.h': 'enum K { A, B };\n' };
    const envelope = await envelopeFor(files, {
      files: [
        { file_path: '/w/src/lexer.cpp', edits: [{ old_string: '    if (a) {\n        return b;\n    }', new_string: '    if (a) {\n        return c;\n    }' }] },
        { file_path: '/w/src/token.h', edits: [{ old_string: 'enum K { A, B };', new_string: 'enum K { A, B, C };' }] },
      ],
    }, 'multi_edit_files');
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    const later = envelope.next_action.files_to_fix?.find((file) => file.file_index === 1);
    assert.equal(later?.error_code, 'FILE_NOT_FOUND');
    assert.deepEqual(later?.context?.nearby_names?.[0], 'tokens.h');
    assert.match(later?.recovery_hints?.[0] ?? '', /^Did you mean tokens\.h\?/);
    assert.match(later?.message ?? '', /token\.h/);
    assert.equal(envelope.next_action.files_to_fix?.find((file) => file.file_index === 0)?.error_code, undefined);
  });
});

describe('text a notebook holds one JSON string per line', () => {
  it('ESCAPED_TEXT locates the lines of old_string as the strings of a cell source list', async () => {
    const notebook = '{\n "cells": [\n  {\n   "source": [\n    "import pandas as pd\\n",\n    "df = pd.read_csv(\\"sales.csv\\")\\n",\n    "df = df[df[\\"amount\\"] > 0]\\n",\n    "df.head()"\n   ]\n  }\n ]\n}\n';
    const envelope = await envelopeFor({ '/w/src/a.ipynb': notebook }, single('df = pd.read_csv("sales.csv")\ndf = df[df["amount"] > 0]', '/w/src/a.ipynb'));
    assert.equal(envelope.diagnosis?.kind, 'ESCAPED_TEXT');
    assert.match(envelope.diagnosis?.detail ?? '', /one JSON string per line .* from line 6 to line 7/);
    assert.deepEqual([envelope.diagnosis?.line, envelope.diagnosis?.column], [6, 6]);
    assert.deepEqual([envelope.diagnosis?.near_match?.start_line, envelope.diagnosis?.near_match?.end_line], [6, 7]);
  });
});

describe('properties of what the envelope names', () => {
  const offsetOf = (text: string, line: number, column: number): number => text.split('\n').slice(0, line - 1).reduce((sum, part) => sum + part.length + 1, 0) + column - 1;
  const countOf = (text: string, piece: string): number => {
    let count = 0;
    for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) {
      count++;
    }
    return count;
  };

  it('old_string grown up to a distinct line, from that line to the match (or on to it), occurs exactly once', async () => {
    const line = fc.constantFrom('alpha();', 'beta();', 'x();', '  x();', '', 'end', 'endx', 'x = 1;');
    await fc.assert(fc.asyncProperty(fc.array(line, { minLength: 2, maxLength: 30 }), fc.nat(), fc.integer({ min: 1, max: 2 }), async (lines, pick, span) => {
      const text = `${lines.join('\n')}\n`;
      const first = pick % lines.length;
      const needle = lines.slice(first, first + span).join('\n');
      fc.pre(needle.trim() !== '' && countOf(text, needle) > 1);
      const envelope = await envelopeFor({ [FILE]: text }, single(needle));
      assert.equal(envelope.error_code, 'AMBIGUOUS_MATCH');
      for (const location of envelope.context?.match_locations ?? []) {
        const at = offsetOf(text, location.line, location.column);
        assert.equal(text.slice(at, at + needle.length), needle);
        if (location.distinct_above) {
          const grown = text.slice(offsetOf(text, location.distinct_above.line, 1), at + needle.length);
          assert.equal(countOf(text, grown), 1, JSON.stringify({ grown, location }));
        }
        if (location.distinct_below) {
          const below = location.distinct_below;
          const grown = text.slice(at, offsetOf(text, below.line, 1) + below.text.length);
          assert.equal(countOf(text, grown), 1, JSON.stringify({ grown, location }));
        }
      }
    }), { numRuns: 300 });
  });

  it('the listed differences, made in old_string, give the near match exactly', async () => {
    const word = fc.constantFrom('price', 'x100', '|', 'EUR', 'Filter', '=', '42', 'cell');
    const gap = fc.constantFrom(' ', '  ', '\t', '\u00a0', '    ', ' \t');
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(word, gap), { minLength: 2, maxLength: 10 }), word, async (pieces, last) => {
      const fileLine = `${pieces.map(([w, g]) => w + g).join('')}${last}`;
      const sent = `${pieces.map(([w]) => `${w} `).join('')}${last}`;
      fc.pre(sent !== fileLine);
      const text = `header\n${fileLine}\nfooter\n`;
      const envelope = await envelopeFor({ [FILE]: text }, single(sent));
      const diagnosis = envelope.diagnosis;
      assert.ok(diagnosis && ['WHITESPACE_ONLY', 'UNICODE_LOOKALIKE'].includes(diagnosis.kind), JSON.stringify(diagnosis));
      assert.ok(diagnosis.differences, JSON.stringify(diagnosis));
      let rebuilt = sent;
      for (const d of [...diagnosis.differences].sort((x, y) => y.old_string_column - x.old_string_column)) {
        assert.equal(d.old_string_line, 1);
        assert.equal(rebuilt.slice(d.old_string_column - 1, d.old_string_column - 1 + d.old_string_has.length), d.old_string_has);
        assert.equal(fileLine.slice(d.column - 1, d.column - 1 + d.file_has.length), d.file_has);
        rebuilt = rebuilt.slice(0, d.old_string_column - 1) + d.file_has + rebuilt.slice(d.old_string_column - 1 + d.old_string_has.length);
      }
      assert.equal(rebuilt, fileLine);
    }), { numRuns: 300 });
  });
});
