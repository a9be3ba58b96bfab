// A chat tool call finds its own request record by the id its result names, not by what the
// runner published last: two runs of one tool, interleaved so that the second finishes first.
import * as assert from 'node:assert/strict';
import { formatForModel } from '../../src/core/contract/format';
import { runRequest } from '../../src/core/engine/engine';
import type { StoreResult, StoredText } from '../../src/core/store/fileStore';
import { RecentRecords } from '../../src/vscode/run/recentRecords';
import type { RequestRecord } from '../../src/vscode/run/requestRecord';
import { recordIdText, splitRecordId } from '../../src/vscode/tools/recordIdPart';
import { MemoryStore } from './helpers/memoryStore';

const SLOW = '/w/slow.txt';
const QUICK = '/w/quick.txt';

/** A store whose reads of SLOW wait until `release()`. */
class GatedStore extends MemoryStore {
  private opened!: () => void;
  private readonly gate = new Promise<void>((resolve) => { this.opened = resolve; });

  release(): void {
    this.opened();
  }

  override async read(path: string): Promise<StoreResult<StoredText>> {
    if (path === SLOW) {
      await this.gate;
    }
    return super.read(path);
  }
}

interface TextPart { readonly value: string }

describe('chat tool calls and their records', () => {
  it('two interleaved calls of multi_edit each get their own record when the second finishes first', async () => {
    const store = new GatedStore({ [SLOW]: 'alpha\n', [QUICK]: 'beta\n' });
    const recent = new RecentRecords();
    const published: RequestRecord[] = [];
    let nextId = 1;
    // What the tool does: run the request under a fresh id, keep and publish its record, and return
    // the response followed by the part that names the record.
    const invoke = async (input: unknown): Promise<TextPart[]> => {
      const id = nextId++;
      const { request, response } = await runRequest('multi_edit', input, { store });
      const record: RequestRecord = { id, source: 'tool', tool: 'multi_edit', ...(request ? { request } : {}), response };
      recent.remember(record);
      published.push(record);
      return [{ value: formatForModel(response) }, { value: recordIdText(id) }];
    };
    const slow = invoke({ file_path: SLOW, edits: [{ old_string: 'missing', new_string: 'x' }] });
    const quick = invoke({ file_path: QUICK, edits: [{ old_string: 'beta', new_string: 'gamma' }] });
    const quickParts = await quick;
    store.release();
    const slowParts = await slow;

    assert.deepEqual(published.map((record) => record.id), [2, 1], 'the second call finished first');
    const recordOf = (parts: TextPart[]) => {
      const split = splitRecordId(parts, (part) => part.value);
      assert.equal(split.parts.length, 1, 'the model reads the response part only');
      assert.ok(split.recordId !== undefined);
      return { record: recent.get(split.recordId), text: split.parts[0].value };
    };
    const first = recordOf(slowParts);
    const second = recordOf(quickParts);
    assert.equal(first.record?.id, 1);
    assert.equal(first.record?.request?.files[0].filePath, SLOW);
    assert.equal(first.record?.response.success, false);
    assert.equal(first.text, formatForModel(first.record!.response));
    assert.equal(second.record?.id, 2);
    assert.equal(second.record?.request?.files[0].filePath, QUICK);
    assert.equal(second.record?.response.success, true);
  });

  it('a result whose last part names no record keeps all its parts', () => {
    const parts = [{ value: 'Applied 1 edit\n{}' }, { value: '[Multi-Edit request #x]' }];
    assert.deepEqual(splitRecordId(parts, (part) => part.value), { parts });
    assert.deepEqual(splitRecordId([], (part: TextPart) => part.value), { parts: [] });
    assert.equal(splitRecordId([{ value: recordIdText(42) }], (part) => part.value).recordId, 42);
  });

  it('keeps the latest records, forgetting the oldest first', () => {
    const recent = new RecentRecords();
    const record = (id: number): RequestRecord => ({ id, source: 'tool', tool: 'multi_edit', response: { success: true } as RequestRecord['response'] });
    for (let id = 1; id <= 100; id++) {
      recent.remember(record(id));
    }
    assert.equal(recent.get(100)?.id, 100);
    assert.equal(recent.get(37)?.id, 37);
    assert.equal(recent.get(36), undefined);
  });
});
