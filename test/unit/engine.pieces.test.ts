/**
 * The piece path (PieceText and the multi-pattern search) on the cases that stress
 * it, each checked against an explicit result and against the plain path.
 */
import * as assert from 'node:assert/strict';
import { checkEdits, type EditToCheck } from '../../src/core/matching/match';
import { occurrencesOfAll } from '../../src/core/matching/multiSearch';
import { PieceText } from '../../src/core/matching/pieceText';
import { comparableOutcome } from './helpers/matchOutcome';

function edit(oldString: string, newString: string, replaceAll = false): EditToCheck {
  return { oldString, newString, replaceAll };
}

/** Runs both paths, checks they agree, and returns the new text. */
async function bothPaths(text: string, edits: EditToCheck[]): Promise<string | undefined> {
  const plain = await checkEdits(text, edits, { maxLocations: 5, strategy: 'plain' });
  const pieces = await checkEdits(text, edits, { maxLocations: 5, strategy: 'pieces' });
  assert.deepEqual(comparableOutcome(pieces), comparableOutcome(plain));
  return pieces.text?.whole();
}

describe('engine: the piece path', () => {
  it('matches text inside an earlier replacement', async () => {
    assert.equal(await bothPaths('one two three', [edit('two', 'deux zwei'), edit('x zw', 'X-ZW')]), 'one deuX-ZWei three');
  });

  it('matches across the seam that a deletion left', async () => {
    assert.equal(await bothPaths('abc-DELETE-def', [edit('-DELETE-', ''), edit('cd', 'C+D')]), 'abC+Def');
  });

  it('matches across several replacements and the text between them', async () => {
    const text = 'start [a] middle [b] end';
    assert.equal(await bothPaths(text, [edit('[a]', '<A>'), edit('[b]', '<B>'), edit('A> middle <B', 'merged')]), 'start <merged> end');
  });

  it('sees a new match made by a replacement as ambiguous', async () => {
    const outcome = await checkEdits('key=1; other', [edit('other', 'key=1'), edit('key=1', 'key=2')], { maxLocations: 5, strategy: 'pieces' });
    assert.deepEqual(outcome.verdicts[1], { status: 'failed', code: 'AMBIGUOUS_MATCH', totalMatches: 2, firstOffsets: [0, 7], matchOffsets: [0, 7] });
  });

  it('keeps working after a replace_all makes hundreds of pieces', async () => {
    const text = Array.from({ length: 1200 }, (_, index) => `item ${index};`).join(' ');
    const result = await bothPaths(text, [
      edit('item', 'entry', true),
      edit('entry 7;', 'entry seven;'),
      edit('entry 1199;', 'last;'),
      edit('seven; entry 8', 'seven; eight'),
    ]);
    assert.equal(result, text.split('item').join('entry').replace('entry 7;', 'entry seven;').replace('entry 1199;', 'last;').replace('seven; entry 8', 'seven; eight'));
  });

  it('replaces overlapping occurrences left to right with replace_all, across pieces', async () => {
    assert.equal(await bothPaths('xaaaax aaa', [edit('x a', 'xa'), edit('aa', 'b', true)]), 'xbbxba');
  });

  it('gives the plain answers for a long run of edits on a large text', async () => {
    const lines = Array.from({ length: 3000 }, (_, index) => `  const value${index} = compute(${index}, "item-${index}");`);
    const text = `${lines.join('\n')}\n`;
    const edits = Array.from({ length: 60 }, (_, index) => edit(lines[index * 50 + 7], `  // line ${index}`));
    edits.push(edit('// line 3\n', '// line three\n'), edit('compute(', 'calc(', true), edit('  // line 59', '  // end'));
    const result = await bothPaths(text, edits);
    assert.ok(result?.includes('// line three\n') && !result.includes('compute(') && result.includes('  // end'));
  });
});

describe('engine: the piece text after a rebase', () => {
  it('finds a pattern asked again after the rebase that scanned only the patterns still to come', async () => {
    const text = Array.from({ length: 700 }, (_, index) => `item ${index}; tag;`).join('\n');
    const working = new PieceText(text, ['item', 'tag;', 'item 7;']);
    const items = working.occurrences('item');
    working.replace(items, 'item'.length, 'entry');
    // 700 pieces: the text was rebuilt and scanned for 'tag;' and 'item 7;' only.
    const current = text.split('item').join('entry');
    const expected = (pattern: string): number[] => {
      const found: number[] = [];
      for (let at = current.indexOf(pattern); at !== -1; at = current.indexOf(pattern, at + 1)) {
        found.push(at);
      }
      return found;
    };
    assert.deepEqual(Array.from(working.occurrences('entry 69')), expected('entry 69'));
    assert.deepEqual(Array.from(working.occurrences('tag;')), expected('tag;'));
    assert.equal(working.occurrences('item').length, 0);
    assert.equal(working.text(), current);
  });
});

describe('engine: the multi-pattern search', () => {
  it('finds overlapping occurrences of many patterns, short and long', async () => {
    const text = `${'abcabcabc '.repeat(40)}needle-one needle-two needle-one`;
    const patterns = ['abcabc', 'needle-one', 'needle-two', 'cabcabc ', 'bcabcabc', 'e-one nee', 'c', 'not-in-there'];
    const found = occurrencesOfAll(text, patterns);
    for (const pattern of patterns) {
      const expected: number[] = [];
      for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
        expected.push(at);
      }
      assert.deepEqual(Array.from(found.get(pattern) ?? []), expected, pattern);
    }
    assert.equal(found.get('abcabc')?.length, 80);
  });
});
