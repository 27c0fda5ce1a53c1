import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { CM, WIDGETS, cm, keyOf, newStore, recorder } from './fixtures.js';

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('MemoryStore create', () => {
  it('case 1: fills system metadata and ignores client-sent system fields', async () => {
    const store = await newStore();
    const created = await store.create(
      CM,
      cm('a', 'default', {
        metadata: { uid: 'x', resourceVersion: '99', creationTimestamp: '2000-01-01T00:00:00Z', deletionTimestamp: 'y', generation: 7 },
      }),
    );
    expect(created.metadata).toMatchObject({ name: 'a', namespace: 'default', resourceVersion: '1', generation: 1, creationTimestamp: '2026-11-29T14:52:30Z' });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.deletionTimestamp).toBeUndefined();
    expect(created.data).toEqual({ key: 'a' });
  });

  it('case 2: resourceVersion strictly increases across writes and resources', async () => {
    const store = await newStore();
    const rvs: number[] = [];
    for (let i = 0; i < 5; i++) rvs.push(Number((await store.create(CM, cm(`o${i}`))).metadata.resourceVersion));
    rvs.push(Number((await store.create(WIDGETS, cm('w'))).metadata.resourceVersion));
    rvs.push(Number((await store.update(keyOf(CM, 'o1'), cm('o1', 'default', { data: { x: '1' } }))).metadata.resourceVersion));
    await store.delete(keyOf(CM, 'o2'));
    expect(rvs).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await store.resourceVersion()).toBe('8');
  });

  it('case 3: cluster-scoped objects have no namespace field', async () => {
    const store = await newStore();
    const created = await store.create({ cluster: 'c1', group: '', resource: 'namespaces' }, { metadata: { name: 'ns1', namespace: '' } });
    expect('namespace' in created.metadata).toBe(false);
    expect(await store.get({ cluster: 'c1', group: '', resource: 'namespaces', namespace: '', name: 'ns1' })).toBe(created);
  });

  it('case 4: generateName appends 5 characters of the Kubernetes alphabet and retries collisions', async () => {
    const suffixes = ['aaaaa', 'aaaaa', 'bbbbb'];
    const store = await newStore({ randomSuffix: () => suffixes.shift() ?? 'zzzzz' });
    const first = await store.create(CM, { metadata: { generateName: 'web-', namespace: 'default' } });
    const second = await store.create(CM, { metadata: { generateName: 'web-', namespace: 'default' } });
    expect([first.metadata.name, second.metadata.name]).toEqual(['web-aaaaa', 'web-bbbbb']);
    const real = await (await newStore()).create(CM, { metadata: { generateName: 'x-', namespace: 'default' } });
    expect(real.metadata.name).toMatch(/^x-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('case 5: AlreadyExists with the Kubernetes message', async () => {
    const store = await newStore();
    await store.create(WIDGETS, cm('a'));
    const err = await rejection(store.create(WIDGETS, cm('a')));
    expect(err.code).toBe('AlreadyExists');
    expect(err.message).toBe('widgets.example.com "a" already exists');
    expect(err.details).toEqual({ name: 'a', group: 'example.com', kind: 'widgets' });
    expect((await rejection(store.create(CM, cm('b')).then(() => store.create(CM, cm('b'))))).message).toBe('configmaps "b" already exists');
  });

  it('case 6: no name and no generateName is Invalid', async () => {
    const err = await rejection((await newStore()).create(CM, { metadata: { namespace: 'default' } }));
    expect(err.code).toBe('Invalid');
  });

  it('case 7: statusSubresource drops a client-sent status on create', async () => {
    const store = await newStore();
    const created = await store.create(WIDGETS, { metadata: { name: 'a' }, spec: { n: 1 }, status: { ready: true } }, { statusSubresource: true });
    expect(created.status).toBeUndefined();
    const kept = await store.create(WIDGETS, { metadata: { name: 'b' }, status: { ready: true } });
    expect(kept.status).toEqual({ ready: true });
  });
});

describe('MemoryStore update', () => {
  it('case 1: NotFound with the Kubernetes message', async () => {
    const err = await rejection((await newStore()).update(keyOf(WIDGETS, 'nope'), cm('nope')));
    expect(err.code).toBe('NotFound');
    expect(err.message).toBe('widgets.example.com "nope" not found');
    expect(err.details).toEqual({ name: 'nope', group: 'example.com', kind: 'widgets' });
  });

  it('case 2: stale resourceVersion conflicts; empty resourceVersion is unconditional', async () => {
    const store = await newStore();
    await store.create(CM, cm('a'));
    await store.update(keyOf(CM, 'a'), cm('a', 'default', { data: { v: '2' } }));
    const stale = cm('a', 'default', { metadata: { resourceVersion: '1' }, data: { v: '3' } });
    const err = await rejection(store.update(keyOf(CM, 'a'), stale));
    expect(err.code).toBe('Conflict');
    expect(err.message).toBe(
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const fresh = await store.update(keyOf(CM, 'a'), cm('a', 'default', { metadata: { resourceVersion: '' }, data: { v: '3' } }));
    expect(fresh.metadata.resourceVersion).toBe('3');
  });

  it('case 3: uid, creationTimestamp and deletionTimestamp cannot be changed', async () => {
    const store = await newStore();
    const created = await store.create(CM, cm('a'));
    const updated = await store.update(
      keyOf(CM, 'a'),
      cm('a', 'default', { metadata: { uid: 'other', creationTimestamp: '2000-01-01T00:00:00Z', deletionTimestamp: '2000-01-01T00:00:00Z' }, data: { v: '2' } }),
    );
    expect(updated.metadata.uid).toBe(created.metadata.uid);
    expect(updated.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(updated.metadata.deletionTimestamp).toBeUndefined();
  });

  const generationCases: { name: string; statusSubresource: boolean; change: (o: KubeObject) => KubeObject; generation: number }[] = [
    { name: 'spec change bumps', statusSubresource: true, change: (o) => ({ ...o, spec: { n: 2 } }), generation: 2 },
    { name: 'metadata change does not bump', statusSubresource: true, change: (o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } } }), generation: 1 },
    { name: 'status is ignored with statusSubresource', statusSubresource: true, change: (o) => ({ ...o, spec: { n: 1 }, status: { s: 'x' } }), generation: 1 },
    { name: 'status change bumps without statusSubresource', statusSubresource: false, change: (o) => ({ ...o, status: { s: 'x' } }), generation: 2 },
    { name: 'new top-level field bumps', statusSubresource: false, change: (o) => ({ ...o, extra: 1 }), generation: 2 },
  ];
  generationCases.forEach((c, i) => {
    it(`case ${i + 4}: generation — ${c.name}`, async () => {
      const store = await newStore();
      const created = await store.create(WIDGETS, { metadata: { name: 'w' }, spec: { n: 1 }, status: { s: 'a' } });
      const updated = await store.update(keyOf(WIDGETS, 'w', ''), c.change(created), { statusSubresource: c.statusSubresource });
      expect(updated.metadata.generation).toBe(c.generation);
    });
  });

  it('case 9: statusSubresource keeps the stored status on a main-resource update', async () => {
    const store = await newStore();
    await store.create(WIDGETS, { metadata: { name: 'w' }, spec: { n: 1 }, status: { s: 'a' } });
    const updated = await store.update(keyOf(WIDGETS, 'w', ''), { metadata: { name: 'w' }, spec: { n: 2 }, status: { s: 'client' } }, { statusSubresource: true });
    expect(updated.status).toEqual({ s: 'a' });
    expect(updated.spec).toEqual({ n: 2 });
  });

  it('case 10: the status subresource writes only .status and keeps metadata', async () => {
    const store = await newStore();
    const created = await store.create(WIDGETS, { metadata: { name: 'w', labels: { a: '1' } }, spec: { n: 1 } }, { statusSubresource: true });
    const updated = await store.update(
      keyOf(WIDGETS, 'w', ''),
      { metadata: { name: 'w', labels: { a: '2' } }, spec: { n: 9 }, status: { ready: true } },
      { statusSubresource: true, subresource: 'status' },
    );
    expect(updated.status).toEqual({ ready: true });
    expect(updated.spec).toEqual({ n: 1 });
    expect(updated.metadata).toEqual({ ...created.metadata, resourceVersion: '2' });
  });

  it('case 11: an update that changes nothing keeps the stored object, version and emits nothing', async () => {
    const store = await newStore();
    const created = await store.create(CM, cm('a'));
    const rec = recorder();
    await store.watch({ group: '', resource: 'configmaps' }, { resourceVersion: '1' }, rec.listener);
    const same = await store.update(keyOf(CM, 'a'), { ...created, metadata: { ...created.metadata, resourceVersion: '' } });
    expect(same).toBe(created);
    expect(await store.resourceVersion()).toBe('1');
    expect(rec.events).toEqual([]);
  });

  it('case 12: dry-run update returns the result but stores nothing', async () => {
    const store = await newStore();
    const created = await store.create(CM, cm('a'));
    const dry = await store.update(keyOf(CM, 'a'), cm('a', 'default', { data: { v: 'dry' } }), { dryRun: true });
    expect(dry.data).toEqual({ v: 'dry' });
    // kube-apiserver answers a dry run at the stored version: no version is taken.
    expect(dry.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(await store.get(keyOf(CM, 'a'))).toBe(created);
    expect(await store.resourceVersion()).toBe('1');
  });

  it('case 13: a dry-run create and delete take no version: the create answers without one, the delete at the stored one', async () => {
    const store = await newStore();
    const dry = await store.create(CM, cm('a'), { dryRun: true });
    expect(dry.metadata).toMatchObject({ name: 'a', namespace: 'default' });
    expect(dry.metadata.uid).toBeTruthy();
    expect(dry.metadata).not.toHaveProperty('resourceVersion');
    const created = await store.create(CM, cm('a'));
    const deleted = await store.delete(keyOf(CM, 'a'), { dryRun: true });
    expect(deleted.object.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(await store.get(keyOf(CM, 'a'))).toBe(created);
    expect(await store.resourceVersion()).toBe('1');
  });

  it('case 14: generation is counted on objects created with one, and left out of those created without', async () => {
    const store = await newStore();
    const counted = await store.create(CM, cm('a'));
    expect(counted.metadata.generation).toBe(1);
    expect((await store.update(keyOf(CM, 'a'), cm('a', 'default', { data: { v: '2' } }))).metadata.generation).toBe(2);
    const uncounted = await store.create(CM, cm('b'), { generation: false });
    expect(uncounted.metadata).not.toHaveProperty('generation');
    const changed = await store.update(keyOf(CM, 'b'), cm('b', 'default', { data: { v: '2' } }));
    expect(changed.data).toEqual({ v: '2' });
    expect(changed.metadata).not.toHaveProperty('generation');
  });
});

describe('MemoryStore objects', () => {
  it('case 1: stored and returned objects are deeply frozen and shared', async () => {
    const store = await newStore();
    const created = await store.create(CM, cm('a', 'default', {}, { app: 'x' }));
    expect(Object.isFrozen(created)).toBe(true);
    expect(Object.isFrozen(created.metadata)).toBe(true);
    expect(Object.isFrozen(created.metadata.labels)).toBe(true);
    expect(Object.isFrozen(created.data)).toBe(true);
    expect(await store.get(keyOf(CM, 'a'))).toBe(created);
    expect((await store.list({ group: '', resource: 'configmaps' })).items[0]).toBe(created);
  });

  it('case 2: two stores are independent', async () => {
    const one = await newStore();
    const two = await newStore();
    await one.create(CM, cm('a'));
    await one.create(CM, cm('b'));
    expect(await two.count({ group: '', resource: 'configmaps' })).toBe(0);
    expect((await two.create(CM, cm('a'))).metadata.resourceVersion).toBe('1');
    expect(await one.resourceVersion()).toBe('2');
  });
});
