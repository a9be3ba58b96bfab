// The edited text a large file's plan hands on unjoined: read through it, sliced for
// encoding and hashed, it gives what the joined string gives, surrogate pairs split
// between pieces included.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { runRequest } from '../../src/core/engine/engine';
import { PiecedText } from '../../src/core/matching/piecedText';
import { PieceText } from '../../src/core/matching/pieceText';
import { encodableSlices, sameText, type EditedText } from '../../src/core/text/editedText';
import { nodeSyntaxGate } from '../../src/node/host/nodeSyntaxGate';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { encodedChunks } from '../../src/node/store/textBytes';
import { sha256Text } from '../../src/shared/history/historyBook';
import { RequestHistory } from '../../src/shared/history/requestHistory';

/** Characters that make pieces meet inside a surrogate pair, a CRLF or a multi-byte character. */
const unit = fc.constantFrom('a', 'b', '\r', '\n', 'é', '\ud83d', '\ude00', '😀', '€');
const shortText = (max: number) => fc.array(unit, { maxLength: max }).map((units) => units.join(''));

/** A base text and replacements applied to it one by one, each at a place chosen in the text as it stands. */
const editedCase = fc.record({
  base: shortText(60),
  replacements: fc.array(fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 4 }), text: shortText(5) }), { maxLength: 12 }),
});

function edited(base: string, replacements: readonly { at: number; length: number; text: string }[]): { text: EditedText; joined: string } {
  const working = new PieceText(base, []);
  for (const { at, length, text } of replacements) {
    // A replaced range is never empty, as an old_string never is.
    if (working.length === 0) {
      break;
    }
    const start = at % working.length;
    working.replace([start], Math.min(length, working.length - start), text);
  }
  return { text: working.edited(), joined: working.text() };
}

describe('an edited text held in pieces', () => {
  it('reads, slices and compares as its joined text does, at every offset and past the end', () => {
    fc.assert(fc.property(editedCase, ({ base, replacements }) => {
      const { text, joined } = edited(base, replacements);
      assert.equal(text.length, joined.length);
      assert.equal([...text.parts()].join(''), joined);
      for (let offset = -2; offset <= joined.length + 1; offset++) {
        assert.ok(Object.is(text.charCodeAt(offset), joined.charCodeAt(offset)), `charCodeAt(${offset})`);
        for (let to = offset; offset >= 0 && to <= joined.length + 1; to += 3) {
          assert.equal(text.slice(offset, to), joined.slice(offset, to), `slice(${offset}, ${to})`);
        }
        const probe = joined.slice(Math.max(0, offset), Math.max(0, offset) + 3);
        assert.equal(text.startsWith(probe, offset), joined.startsWith(probe, offset));
        assert.equal(text.startsWith('a', offset), joined.startsWith('a', offset));
      }
      assert.ok(sameText(text, joined));
      assert.equal(sameText(text, `${joined}x`), false);
      if (joined.length > 0) {
        assert.equal(sameText(text, `${joined.slice(0, -1)}${joined.endsWith('a') ? 'b' : 'a'}`), false);
      }
      assert.equal(text.whole(), joined);
      assert.equal(text.charCodeAt(0), joined.charCodeAt(0), 'once joined, it reads the same');
    }), { numRuns: 300 });
  });

  it('slices for encoding never part a surrogate pair, within a part or across two, and encode to the whole text\'s bytes', () => {
    fc.assert(fc.property(fc.array(shortText(9), { maxLength: 8 }), fc.integer({ min: 1, max: 5 }), (parts, maxChars) => {
      const joined = parts.join('');
      const slices = [...encodableSlices({ parts: () => parts }, maxChars)];
      assert.equal(slices.join(''), joined);
      for (const slice of slices) {
        assert.ok(slice.length > 0 && slice.length <= Math.max(2, maxChars), JSON.stringify(slice));
      }
      const bytes = Buffer.concat(slices.map((slice) => Buffer.from(slice, 'utf8')));
      assert.ok(bytes.equals(Buffer.from(joined, 'utf8')), JSON.stringify(parts));
    }), { numRuns: 500 });
  });

  it('is written and hashed part by part to the bytes and the digest of its joined text', () => {
    fc.assert(fc.property(editedCase, fc.boolean(), ({ base, replacements }, bom) => {
      const { text, joined } = edited(base.repeat(50), replacements);
      // Each chunk is copied before the next is asked for: they share one buffer.
      const chunks: Buffer[] = [];
      for (const chunk of encodedChunks({ text, bom })) {
        chunks.push(Buffer.from(chunk));
      }
      const written = Buffer.concat(chunks);
      assert.ok(written.equals(Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(joined, 'utf8')])));
      assert.equal(sha256Text(text), createHash('sha256').update(joined, 'utf8').digest('hex'));
    }), { numRuns: 200 });
  });

  it('is never joined on the way of an accepted request: gated, written, recorded and undone', async function () {
    this.timeout(120_000);
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-edited-text-')));
    const root = path.join(base, 'project');
    fs.mkdirSync(root);
    const line = (index: number): string => `export const value${index} = compute(${index}, "café ${index}"); // 😀\n`;
    const text = Array.from({ length: 40_000 }, (_, index) => line(index)).join('');
    // A rename the gate reads by its words, an argument added that it parses around, and a file of no language it knows.
    const files = {
      'renamed.ts': [['value100 =', 'renamed100 ='], ['value20000 =', 'renamed20000 ='], ['value39000 =', 'renamed39000 =']],
      'argument.js': [['compute(100,', 'compute(extra, 100,'], ['compute(20000,', 'compute(extra, 20000,'], ['compute(39000,', 'compute(extra, 39000,']],
      'notes.txt': [['café 100"', 'thé 100"'], ['café 20000"', 'thé 20000"'], ['café 39000"', 'thé 39000"']],
    };
    for (const name of Object.keys(files)) fs.writeFileSync(path.join(root, name), text);
    const history = new RequestHistory({ enabled: true, folder: path.join(base, 'state'), bounds: { maxRequests: 100, maxBytes: 1 << 30 } }, 'cli');
    const { checker } = nodeSyntaxGate('refuse', () => undefined);
    const whole = PiecedText.prototype.whole;
    let joined = 0;
    PiecedText.prototype.whole = function (this: PiecedText) {
      joined++;
      return whole.call(this);
    };
    try {
      const store = new NodeFileStore();
      const recorded = await history.record(root, store, (name) => path.relative(root, name));
      const input = { files: Object.entries(files).map(([name, edits]) => ({ file_path: path.join(root, name), edits: edits.map(([old_string, new_string]) => ({ old_string, new_string })) })) };
      const { response } = await runRequest('multi_edit_files', input, { store: recorded.store, root, requestId: recorded.requestId, syntaxChecker: checker });
      const finished = await recorded.finish(response);
      assert.ok(finished.success, JSON.stringify(finished).slice(0, 400));
      assert.equal(joined, 0, 'no new text was joined');
      for (const [name, edits] of Object.entries(files)) {
        const expected = edits.reduce((current, [from, to]) => current.replace(from, to), text);
        assert.equal(fs.readFileSync(path.join(root, name), 'utf8'), expected, name);
      }
      const undone = await history.undo(root, undefined, false, { store, root });
      assert.ok(undone.success, JSON.stringify(undone).slice(0, 400));
      for (const name of Object.keys(files)) assert.equal(fs.readFileSync(path.join(root, name), 'utf8'), text, `${name} undone`);
    } finally {
      PiecedText.prototype.whole = whole;
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
