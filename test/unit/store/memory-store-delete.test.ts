import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { CM, cm, keyOf, newStore, recorder } from './fixtures.js';

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('MemoryStore delete and finalizers', () => {
  it('case 1: delete without finalizers removes and bumps the version', async () => {
    const store = await newStore();
    await store.create(CM, cm('a'));
    const rec = recorder();
    await store.watch({ group: '', resource: 'configmaps' }, { resourceVersion: '1' }, rec.listener);
    const result = await store.delete(keyOf(CM, 'a'));
    expect(result.deleted).toBe(true);
    expect(result.object.metadata.resourceVersion).toBe('2');
    expect(rec.summary()).toEqual(['DELETED a 2']);
    await expect(store.get(keyOf(CM, 'a'))).rejects.toMatchObject({ code: 'NotFound', message: 'configmaps "a" not found' });
  });

  it('case 2: finalizers turn delete into a mark; removing them deletes', async () => {
    const store = await newStore();
    await store.create(CM, cm('a', 'default', { metadata: { finalizers: ['x/y'] } }));
    const rec = recorder();
    await store.watch({ group: '', resource: 'configmaps' }, { resourceVersion: '1' }, rec.listener);
    const marked = await store.delete(keyOf(CM, 'a'));
    expect(marked.deleted).toBe(false);
    expect(marked.object.metadata).toMatchObject({ deletionTimestamp: '2026-11-29T14:52:30Z', deletionGracePeriodSeconds: 0, resourceVersion: '2' });
    const again = await store.delete(keyOf(CM, 'a'));
    expect(again.object).toBe(marked.object);
    const final = await store.update(keyOf(CM, 'a'), { ...marked.object, metadata: { ...marked.object.metadata, finalizers: [] } });
    expect(final.metadata.resourceVersion).toBe('3');
    expect(rec.summary()).toEqual(['MODIFIED a 2', 'DELETED a 3']);
    expect(await store.count({ group: '', resource: 'configmaps' })).toBe(0);
  });

  it('case 3: ignoreFinalizers removes at once', async () => {
    const store = await newStore();
    await store.create(CM, cm('a', 'default', { metadata: { finalizers: ['x/y'] } }));
    expect((await store.delete(keyOf(CM, 'a'), { ignoreFinalizers: true })).deleted).toBe(true);
  });

  it('case 4: preconditions must match', async () => {
    const store = await newStore();
    const created = await store.create(CM, cm('a'));
    const uid = await rejection(store.delete(keyOf(CM, 'a'), { preconditions: { uid: 'nope' } }));
    expect(uid.code).toBe('Conflict');
    expect(uid.message).toBe(`Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: nope, UID in object meta: ${created.metadata.uid ?? ''}`);
    expect((await rejection(store.delete(keyOf(CM, 'a'), { preconditions: { resourceVersion: '7' } }))).code).toBe('Conflict');
    expect((await store.delete(keyOf(CM, 'a'), { preconditions: { uid: created.metadata.uid, resourceVersion: '1' } })).deleted).toBe(true);
  });

  it('case 5: dry-run create and delete store nothing and consume no version', async () => {
    const store = await newStore();
    const rec = recorder();
    await store.watch({ group: '', resource: 'configmaps' }, {}, rec.listener);
    const dry = await store.create(CM, cm('a'), { dryRun: true });
    expect(dry.metadata.name).toBe('a');
    expect(await store.count({ group: '', resource: 'configmaps' })).toBe(0);
    await store.create(CM, cm('a'));
    expect((await store.delete(keyOf(CM, 'a'), { dryRun: true })).deleted).toBe(true);
    expect(await store.count({ group: '', resource: 'configmaps' })).toBe(1);
    expect(await store.resourceVersion()).toBe('1');
    expect(rec.summary()).toEqual(['ADDED a 1']);
  });

  it('case 6: deleteCollection deletes or marks every match across clusters', async () => {
    const store = await newStore();
    await store.create(CM, cm('a'));
    await store.create(CM, cm('b', 'default', { metadata: { finalizers: ['f'] } }));
    await store.create({ ...CM, cluster: 'c2' }, cm('c'));
    const done = await store.deleteCollection({ group: '', resource: 'configmaps' });
    expect(done.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(await store.count({ group: '', resource: 'configmaps' })).toBe(1);
    expect((await store.get(keyOf(CM, 'b'))).metadata.deletionTimestamp).toBeDefined();
  });
});
