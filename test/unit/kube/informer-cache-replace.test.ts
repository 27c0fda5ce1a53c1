// A list of many objects is applied to an informer's cache in slices, so the process keeps
// answering meanwhile. Orders are asserted (a timer fired before the list was applied), never
// durations.

import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { InformerCache } from '../../../src/kube/informer-cache.js';

const N = 100_000;

function objects(n: number, resourceVersion: string): KubeObject[] {
  return Array.from({ length: n }, (_, i) => ({ metadata: { name: `o${i}`, namespace: 'ns', resourceVersion, uid: `u${i}` } }));
}

function cacheWithEvents(): { cache: InformerCache; events: string[] } {
  const cache = new InformerCache(() => 'c', pino({ level: 'silent' }));
  const events: string[] = [];
  cache.addHandler({
    add: (o) => events.push(`add ${o.metadata.name ?? ''}`),
    update: (o) => events.push(`update ${o.metadata.name ?? ''}`),
    delete: (o) => events.push(`delete ${o.metadata.name ?? ''}`),
  });
  return { cache, events };
}

describe('InformerCache.replace', () => {
  it('case 1: a timer set when a list of 100k objects starts to apply fires before it is applied', async () => {
    const { cache } = cacheWithEvents();
    const sizeAtTimer = new Promise<number>((resolve) => setTimeout(() => resolve(cache.size), 0));
    const applied = cache.replace(objects(N, '1'));
    expect(await sizeAtTimer).toBeLessThan(N);
    await applied;
    expect(cache.size).toBe(N);
  });

  it('case 2: a relist adds the new, updates the changed, deletes the vanished and leaves the unchanged alone', async () => {
    const { cache, events } = cacheWithEvents();
    await cache.replace([...objects(3, '1')]);
    events.length = 0;
    const [o0, o1] = objects(2, '1');
    const changed = { metadata: { ...o1?.metadata, resourceVersion: '2' } };
    await cache.replace([o0 as KubeObject, changed, { metadata: { name: 'new', namespace: 'ns', resourceVersion: '3', uid: 'n' } }]);
    expect(events.sort()).toEqual(['add new', 'delete o2', 'update o1']);
    expect(cache.get('c', 'ns', 'o1')?.metadata.resourceVersion).toBe('2');
  });

  it('case 3: a handler that joins while a list is being applied gets every object, those applied before it joined too', async () => {
    const { cache } = cacheWithEvents();
    const late = new Set<string>();
    let added = 0;
    const joinAfter = 1_000;
    // Joins from inside the first handler's add of the 1,000th object: the list is half applied.
    cache.addHandler({
      add: () => {
        if (++added !== joinAfter) return;
        cache.addHandler({ add: (o) => late.add(o.metadata.name ?? '') });
      },
    });
    await cache.replace(objects(5_000, '1'));
    expect(late.size).toBe(5_000);
  });

  it('case 4: the first list into an empty cache is one add per object and holds each as listed; a relist then diffs', async () => {
    const { cache, events } = cacheWithEvents();
    const listed = objects(2_000, '1');
    await cache.replace(listed);
    expect(events.length).toBe(2_000);
    expect(events.every((e) => e.startsWith('add '))).toBe(true);
    expect(new Set(events).size).toBe(2_000);
    expect(cache.get('c', 'ns', 'o1999')).toEqual(listed[1_999]);
    events.length = 0;
    await cache.replace(objects(2_000, '1'));
    expect(events).toEqual([]);
  });
});
