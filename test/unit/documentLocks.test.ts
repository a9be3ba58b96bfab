import * as assert from 'node:assert/strict';
import { heldDocumentLocks, withDocumentLocks } from '../../src/shared/documentLocks';

/** A critical section that records when it starts and ends, and ends when told. */
function gate(name: string, events: string[]): { run: () => Promise<string>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    open: () => open(),
    run: async () => {
      events.push(`${name} start`);
      await opened;
      events.push(`${name} end`);
      return name;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('document locks', () => {
  it('runs holders of one document one after another, in the order they asked', async () => {
    const events: string[] = [];
    const [first, second, third] = ['a', 'b', 'c'].map((name) => gate(name, events));
    const results = [
      withDocumentLocks(['file:///x'], first.run),
      withDocumentLocks(['file:///x'], second.run),
      withDocumentLocks(['file:///x'], third.run),
    ];
    await settle();
    assert.deepEqual(events, ['a start']);
    third.open();
    second.open();
    await settle();
    assert.deepEqual(events, ['a start'], 'b and c wait for a even when they could finish');
    first.open();
    assert.deepEqual(await Promise.all(results), ['a', 'b', 'c']);
    assert.deepEqual(events, ['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    assert.equal(heldDocumentLocks(), 0, 'no key is kept once every holder is done');
  });

  it('runs holders of different documents side by side', async () => {
    const events: string[] = [];
    const [first, second] = ['a', 'b'].map((name) => gate(name, events));
    const results = [withDocumentLocks(['file:///x'], first.run), withDocumentLocks(['file:///y'], second.run)];
    await settle();
    assert.deepEqual(events, ['a start', 'b start']);
    first.open();
    second.open();
    await Promise.all(results);
  });

  it('a holder of several documents waits for each, and crossing key orders cannot deadlock', async () => {
    const events: string[] = [];
    const [first, second, third] = ['a', 'b', 'c'].map((name) => gate(name, events));
    const results = [
      withDocumentLocks(['file:///x', 'file:///y'], first.run),
      withDocumentLocks(['file:///y', 'file:///x'], second.run),
      withDocumentLocks(['file:///y'], third.run),
    ];
    [first, second, third].forEach((holder) => holder.open());
    assert.deepEqual(await Promise.all(results), ['a', 'b', 'c']);
    assert.deepEqual(events, ['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('a holder that throws passes its turn on and its error to its caller', async () => {
    const failing = withDocumentLocks(['file:///x'], async () => {
      throw new Error('applyEdit blew up');
    });
    const next = withDocumentLocks(['file:///x'], async () => 'next ran');
    await assert.rejects(failing, /applyEdit blew up/);
    assert.equal(await next, 'next ran');
    assert.equal(heldDocumentLocks(), 0);
  });
});
