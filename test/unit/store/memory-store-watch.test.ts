import { describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import type { AppError } from '../../../src/errors.js';
import { CM, cm, keyOf, newStore, recorder } from './fixtures.js';
import { labelEquals } from './selectors.js';

const ALL = { group: '', resource: 'configmaps' } as const;

describe('MemoryStore watch', () => {
  it('case 1: without a resourceVersion, current objects come as ADDED, then live events in order', async () => {
    const store = await newStore();
    await store.create(CM, cm('b'));
    await store.create(CM, cm('a'));
    const rec = recorder();
    await store.watch(ALL, {}, rec.listener);
    await store.create(CM, cm('c'));
    await store.update(keyOf(CM, 'c'), cm('c', 'default', { data: { v: '2' } }));
    await store.delete(keyOf(CM, 'a'));
    expect(rec.summary()).toEqual(['ADDED a 2', 'ADDED b 1', 'ADDED c 3', 'MODIFIED c 4', 'DELETED a 5']);
  });

  it('case 2: a numeric resourceVersion replays the window after it, then goes live', async () => {
    const store = await newStore();
    for (const n of ['a', 'b', 'c']) await store.create(CM, cm(n));
    await store.create({ ...CM, resource: 'secrets' }, cm('s'));
    await store.update(keyOf(CM, 'a'), cm('a', 'default', { data: { v: '2' } }));
    const rec = recorder();
    await store.watch(ALL, { resourceVersion: '2' }, rec.listener);
    await store.delete(keyOf(CM, 'b'));
    expect(rec.summary()).toEqual(['ADDED c 3', 'MODIFIED a 5', 'DELETED b 6']);
  });

  it('case 3: a version older than a small window is Expired, the oldest retained one is not', async () => {
    const store = await newStore({ eventWindow: 3 });
    for (let i = 0; i < 6; i++) await store.create(CM, cm(`o${i}`));
    await expect(store.watch(ALL, { resourceVersion: '2' }, () => undefined)).rejects.toMatchObject({
      code: 'Expired',
      message: 'too old resource version: 2 (3)',
    });
    const rec = recorder();
    await store.watch(ALL, { resourceVersion: '3' }, rec.listener);
    expect(rec.summary()).toEqual(['ADDED o3 4', 'ADDED o4 5', 'ADDED o5 6']);
  });

  it('case 4: a window that never dropped anything replays from 1', async () => {
    const store = await newStore({ eventWindow: 10 });
    for (let i = 0; i < 3; i++) await store.create(CM, cm(`o${i}`));
    const rec = recorder();
    await store.watch(ALL, { resourceVersion: '1' }, rec.listener);
    expect(rec.summary()).toEqual(['ADDED o1 2', 'ADDED o2 3']);
  });

  it('case 5: a non-numeric resourceVersion is a BadRequest', async () => {
    await expect((await newStore()).watch(ALL, { resourceVersion: 'abc' }, () => undefined)).rejects.toMatchObject({ code: 'BadRequest' });
  });

  it('case 6: selector transitions become ADDED and DELETED', async () => {
    const store = await newStore();
    const rec = recorder();
    await store.watch(ALL, { labelSelector: labelEquals({ app: 'web' }) }, rec.listener);
    await store.create(CM, cm('a', 'default', {}, { app: 'db' }));
    await store.update(keyOf(CM, 'a'), cm('a', 'default', {}, { app: 'web' }));
    await store.update(keyOf(CM, 'a'), cm('a', 'default', { data: { v: '2' } }, { app: 'web' }));
    await store.update(keyOf(CM, 'a'), cm('a', 'default', { data: { v: '2' } }, { app: 'db' }));
    await store.delete(keyOf(CM, 'a'));
    expect(rec.summary()).toEqual(['ADDED a 2', 'MODIFIED a 3', 'DELETED a 4']);
    expect(rec.events[2]?.object.metadata.labels).toEqual({ app: 'db' });
  });

  it('case 7: replayed events are translated by selectors too', async () => {
    const store = await newStore();
    await store.create(CM, cm('a', 'default', {}, { app: 'web' }));
    await store.update(keyOf(CM, 'a'), cm('a', 'default', {}, { app: 'db' }));
    const rec = recorder();
    await store.watch(ALL, { resourceVersion: '1', labelSelector: labelEquals({ app: 'web' }) }, rec.listener);
    expect(rec.summary()).toEqual(['DELETED a 2']);
  });

  it('case 8: scope filters cluster and namespace', async () => {
    const store = await newStore();
    const rec = recorder();
    await store.watch({ ...ALL, cluster: 'c1', namespace: 'ns1' }, {}, rec.listener);
    await store.create(CM, cm('a', 'ns1'));
    await store.create(CM, cm('b', 'ns2'));
    await store.create({ ...CM, cluster: 'c2' }, cm('c', 'ns1'));
    expect(rec.summary()).toEqual(['ADDED a 1']);
  });

  it('case 9: sendInitialEvents sends the state, then an annotated bookmark', async () => {
    const store = await newStore();
    await store.create(CM, cm('a'));
    await store.create(CM, cm('b'));
    const rec = recorder();
    await store.watch(ALL, { resourceVersion: '1', sendInitialEvents: true }, rec.listener);
    expect(rec.summary()).toEqual(['ADDED a 1', 'ADDED b 2', 'BOOKMARK 2']);
    expect(rec.events[2]?.object).toEqual({ metadata: { resourceVersion: '2', annotations: { 'k8s.io/initial-events-end': 'true' } } });
    await store.create(CM, cm('c'));
    expect(rec.summary().at(-1)).toBe('ADDED c 3');
  });

  it('case 10: bookmark() reports the current version at once', async () => {
    const store = await newStore();
    const rec = recorder();
    const watch = await store.watch({ ...ALL, resource: 'other' }, {}, rec.listener);
    await store.create(CM, cm('a'));
    watch.bookmark();
    expect(rec.events).toEqual([{ type: 'BOOKMARK', object: { metadata: { resourceVersion: '1' } } }]);
  });

  it('case 11: stop ends deliveries, also mid-fan-out', async () => {
    const store = await newStore();
    const rec = recorder();
    const second = recorder();
    const watches: { stop(): void }[] = [];
    await store.watch(ALL, {}, (e) => {
      rec.listener(e);
      watches[0]?.stop();
    });
    watches.push(await store.watch(ALL, {}, second.listener));
    await store.create(CM, cm('a'));
    expect(rec.summary()).toEqual(['ADDED a 1']);
    expect(second.events).toEqual([]);
  });

  it('case 12: a resourceVersion the store has not reached is refused as too large (504, ResourceVersionTooLarge)', async () => {
    const store = await newStore();
    await store.create(CM, cm('a'));
    const refused = await store.watch(ALL, { resourceVersion: '2' }, () => undefined).then(() => undefined, (err: unknown) => err);
    expect(refused).toMatchObject({ code: 'Timeout', message: 'Timeout: Too large resource version: 2, current: 1' });
    expect((refused as AppError).details.causes).toEqual([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    const rec = recorder();
    await store.watch(ALL, { resourceVersion: '1' }, rec.listener);
    await store.create(CM, cm('b'));
    expect(rec.summary()).toEqual(['ADDED b 2']);
  });

  it('case 13: a throwing listener is stopped and reported; others still receive', async () => {
    const errors: unknown[] = [];
    const store = await newStore({ onListenerError: (e) => errors.push(e) });
    const rec = recorder();
    await store.watch(ALL, {}, () => {
      throw new Error('boom');
    });
    await store.watch(ALL, {}, rec.listener);
    await store.create(CM, cm('a'));
    await store.create(CM, cm('b'));
    expect(errors).toHaveLength(1);
    expect(rec.summary()).toEqual(['ADDED a 1', 'ADDED b 2']);
  });

  it('case 14: a write from inside a listener is delivered after the current event, in order', async () => {
    const store = await newStore();
    const first: string[] = [];
    const second = recorder();
    await store.watch(ALL, {}, (e) => {
      first.push(`${e.type} ${e.object.metadata.name ?? ''}`);
      if (e.object.metadata.name === 'a') void store.create(CM, cm('b'));
    });
    await store.watch(ALL, {}, second.listener);
    await store.create(CM, cm('a'));
    // Over a backend the second write commits in a later batch: wait for it, then check the order.
    await eventually(() => expect(first).toEqual(['ADDED a', 'ADDED b']));
    expect(second.summary()).toEqual(['ADDED a 1', 'ADDED b 2']);
  });

  it('case 15: two stores do not share watchers', async () => {
    const one = await newStore();
    const two = await newStore();
    const rec = recorder();
    await one.watch(ALL, {}, rec.listener);
    await two.create(CM, cm('a'));
    expect(rec.events).toEqual([]);
  });
});
