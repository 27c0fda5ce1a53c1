// MemoryStore: retained versions bounded by bytes (eventWindowBytes), through the store's API.
//   case 1: small patches to a large object evict the oldest versions: a watch from the first
//           version is Expired, one from a recent version replays what followed it.
//   case 2: the same writes of a small object stay within the count bound: nothing is evicted.
//   case 3: a version sharing frozen parts with the one before (an update keeping the data) is
//           counted whole: the estimate cannot tell which parts other retained versions share,
//           and counting them never lets the window hold more than its bound.
//   case 4: a continue token expires once the event window no longer reaches its first page's
//           version (its snapshot would be the last holder of replaced versions) ...
//   case 5: ... and still serves its pages while the window reaches it.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import type { MemoryStore } from '../../../src/store/memory-store.js';
import { CM, cm, keyOf, newStore, recorder } from './fixtures.js';

const BIG = 'x'.repeat(100_000);
/** BUDGET holds a few versions of a 100 kB object. */
const BUDGET = 450_000;

async function patchCount(store: MemoryStore, name: string, n: number): Promise<KubeObject> {
  const stored = await store.get(keyOf(CM, name));
  return store.update(keyOf(CM, name), { ...stored, metadata: { ...stored.metadata, resourceVersion: '' }, data: { ...(stored.data as object), n: String(n) } });
}

async function canWatchFrom(store: MemoryStore, rv: string): Promise<string[]> {
  const seen = recorder();
  const watch = await store.watch(CM, { resourceVersion: rv }, seen.listener);
  watch.stop();
  return seen.events.map((e) => e.object.metadata.resourceVersion ?? '');
}

describe('MemoryStore: retained versions bounded by bytes', () => {
  it('case 1: small patches to a large object evict the oldest versions', async () => {
    const store = await newStore({ eventWindowBytes: BUDGET });
    const first = await store.create(CM, cm('big', 'default', { data: { blob: BIG } }));
    let last = first;
    for (let n = 1; n <= 20; n++) last = await patchCount(store, 'big', n);
    await expect(canWatchFrom(store, first.metadata.resourceVersion ?? '')).rejects.toMatchObject({ code: 'Expired' });
    const recent = String(Number(last.metadata.resourceVersion) - 2);
    expect(await canWatchFrom(store, recent)).toEqual([String(Number(recent) + 1), last.metadata.resourceVersion]);
  });

  it('case 2: the same writes of a small object stay within the count bound: nothing is evicted', async () => {
    const store = await newStore({ eventWindowBytes: BUDGET });
    const first = await store.create(CM, cm('small'));
    for (let n = 1; n <= 20; n++) await patchCount(store, 'small', n);
    expect(await canWatchFrom(store, first.metadata.resourceVersion ?? '')).toHaveLength(20);
  });

  it('case 3: a version sharing frozen parts with the one before (its data kept as is) is counted whole', async () => {
    const store = await newStore({ eventWindowBytes: BUDGET });
    const first = await store.create(CM, cm('big', 'default', { data: { blob: BIG } }));
    // Each update takes the stored (frozen) data by reference and changes only a label.
    for (let n = 0; n < 10; n++) {
      const stored = await store.get(keyOf(CM, 'big'));
      await store.update(keyOf(CM, 'big'), { ...stored, metadata: { ...stored.metadata, resourceVersion: '', labels: { n: String(n) } } });
    }
    await expect(canWatchFrom(store, first.metadata.resourceVersion ?? '')).rejects.toMatchObject({ code: 'Expired' });
  });

  it('case 4: a continue token expires once the event window no longer reaches its first page', async () => {
    const store = await newStore({ eventWindowBytes: BUDGET });
    for (const name of ['a', 'b', 'c']) await store.create(CM, cm(name, 'default', { data: { blob: BIG } }));
    const page = await store.list(CM, { limit: 1 });
    expect(page.continue).toBeDefined();
    for (let n = 1; n <= 10; n++) await patchCount(store, 'b', n);
    await expect(store.list(CM, { limit: 1, continue: page.continue })).rejects.toMatchObject({ code: 'Expired' });
  });

  it('case 5: ... and still serves its pages while the window reaches it', async () => {
    const store = await newStore({ eventWindowBytes: BUDGET });
    for (const name of ['a', 'b', 'c']) await store.create(CM, cm(name, 'default', { data: { blob: BIG } }));
    const page = await store.list(CM, { limit: 1 });
    await patchCount(store, 'b', 1);
    const next = await store.list(CM, { limit: 1, continue: page.continue });
    expect(next.items.map((o) => [o.metadata.name, o.data])).toEqual([['b', { blob: BIG }]]);
    expect(next.resourceVersion).toBe(page.resourceVersion);
  });
});
