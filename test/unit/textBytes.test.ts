import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodedChunks } from '../../src/node/store/textBytes';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { wholeText } from '../../src/core/text/editedText';

describe('the Node store: text to bytes', () => {
  const bytesOf = (text: string, bom = false): Buffer => Buffer.concat([...encodedChunks({ text: wholeText(text), bom })].map((chunk) => Buffer.from(chunk)));

  it('encodes texts side by side, each into buffers of its own, and again with the buffers given back', () => {
    const texts = ['short', 'é'.repeat(300_000), 'x'.repeat(70_000), '\ud83d\ude00'.repeat(200_000), ''];
    for (let round = 0; round < 3; round++) {
      const readers = texts.map((text) => ({ text, iterator: encodedChunks({ text: wholeText(text), bom: round === 1 }), bytes: [] as Buffer[] }));
      // Every reader takes one chunk in turn, so all of them hold a buffer at once.
      for (let pending = readers; pending.length > 0;) {
        pending = pending.filter((reader) => {
          const next = reader.iterator.next();
          if (!next.done) {
            reader.bytes.push(Buffer.from(next.value));
          }
          return !next.done;
        });
      }
      for (const reader of readers) {
        const expected = Buffer.concat([round === 1 ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(reader.text, 'utf8')]);
        assert.ok(Buffer.concat(reader.bytes).equals(expected), `round ${round}: ${reader.text.slice(0, 8)}`);
      }
    }
  });

  it('gives the buffer back when the reader stops early, and encodes the next text whole', () => {
    const iterator = encodedChunks({ text: wholeText('a'.repeat(1 << 20)), bom: false });
    iterator.next();
    iterator.return(undefined);
    assert.ok(bytesOf('b'.repeat(1 << 19)).equals(Buffer.from('b'.repeat(1 << 19))));
  });

  it('reads each file into a buffer the next read reuses, and the texts read stay as they were', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'multi-edit-read-buffers-'));
    try {
      // Same sizes, so every read can take the buffer the one before gave back; a BOM, two-byte text, surrogate pairs, and a larger file.
      const contents = ['a'.repeat(50_000), '\uFEFF' + 'b'.repeat(49_997), 'é'.repeat(25_000), '\ud83d\ude00'.repeat(12_500), 'c'.repeat(50_000), 'd'.repeat(300_000)];
      const store = new NodeFileStore();
      const texts: string[] = [];
      for (const [index, content] of contents.entries()) {
        const path = join(folder, `file${index}.txt`);
        await writeFile(path, content);
        const read = await store.read(path);
        assert.ok(read.ok, `file ${index}`);
        texts.push(read.value.text);
      }
      assert.deepEqual(texts, contents.map((content) => content.replace(/^\uFEFF/, '')));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
