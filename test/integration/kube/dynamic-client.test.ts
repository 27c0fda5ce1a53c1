// DynamicClient against the embedded kcp-style source over real HTTP: CRUD on a core and a
// custom resource in two logical clusters, status writes, patches, dry runs and the source's
// own errors coming back as AppErrors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, WIDGETS, configMap, defineWidgets, freePort, rejection } from './kube-test-kit.js';

describe('DynamicClient', () => {
  let app: TestApp;
  let client: DynamicClient;

  beforeAll(async () => {
    app = await startTestApp({ embedded: { enabled: true, clusters: ['root', 'other'] } });
    client = new DynamicClient(embeddedSource(app.url));
    await defineWidgets(client, 'root');
    await defineWidgets(client, 'other');
  });
  afterAll(async () => app?.stop());

  it('creates, gets, lists, updates and deletes configmaps, keeping logical clusters apart', async () => {
    const inRoot = await client.create('root', CONFIGMAPS, 'default', configMap('crud', { a: '1' }));
    const inOther = await client.create('other', CONFIGMAPS, 'default', configMap('crud', { a: 'other' }));
    expect(inRoot.metadata.annotations?.['kcp.io/cluster']).toBe('root');
    expect(inOther.metadata.annotations?.['kcp.io/cluster']).toBe('other');
    expect((await client.get('root', CONFIGMAPS, 'default', 'crud'))['data']).toEqual({ a: '1' });

    const updated = await client.update('root', CONFIGMAPS, 'default', { ...inRoot, data: { a: '2' } });
    expect(updated['data']).toEqual({ a: '2' });
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(inRoot.metadata.resourceVersion));

    const everywhere = await client.list(undefined, CONFIGMAPS);
    const crud = everywhere.items.filter((o) => o.metadata.name === 'crud');
    expect(crud.map((o) => o.metadata.annotations?.['kcp.io/cluster']).sort()).toEqual(['other', 'root']);

    await client.delete('root', CONFIGMAPS, 'default', 'crud');
    expect((await rejection(client.get('root', CONFIGMAPS, 'default', 'crud'))).code).toBe('NotFound');
    expect((await client.get('other', CONFIGMAPS, 'default', 'crud'))['data']).toEqual({ a: 'other' });
  });

  it('gives list items apiVersion and kind, keeps timestamps as strings and freezes what it returns', async () => {
    await client.create('root', CONFIGMAPS, 'default', configMap('raw-json'));
    const page = await client.list('root', CONFIGMAPS);
    expect(page.resourceVersion).toMatch(/^\d+$/);
    const item = page.items.find((o) => o.metadata.name === 'raw-json');
    expect(item).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(Object.keys(item ?? {}).slice(0, 2)).toEqual(['apiVersion', 'kind']);
    expect(typeof item?.metadata.creationTimestamp).toBe('string');
    expect(Object.isFrozen(item)).toBe(true);
    expect(Object.isFrozen(item?.metadata)).toBe(true);
    expect(Object.isFrozen(await client.get('root', CONFIGMAPS, 'default', 'raw-json'))).toBe(true);
  });

  it('pages a list with limit and continue, and listAll gathers every page at one resourceVersion', async () => {
    for (let i = 0; i < 5; i++) await client.create('other', CONFIGMAPS, 'default', configMap(`page-${i}`, {}, { paged: 'yes' }));
    const first = await client.list('other', CONFIGMAPS, { labelSelector: 'paged=yes', limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.continue).toBeTruthy();
    const second = await client.list('other', CONFIGMAPS, { labelSelector: 'paged=yes', limit: 2, continue: first.continue });
    expect(second.items.map((o) => o.metadata.name)).not.toContain(first.items[0]?.metadata.name);
    for (const pageSize of [2, undefined]) {
      const all = await client.listAll('other', CONFIGMAPS, { labelSelector: 'paged=yes', ...(pageSize === undefined ? {} : { pageSize }) });
      expect(all.items.map((o) => o.metadata.name).sort()).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
      expect(all.resourceVersion).toBe(first.resourceVersion);
      expect(all.continue).toBeUndefined();
    }
  });

  it('creates custom resources per logical cluster and writes their status with updateStatus', async () => {
    const created = await client.create('root', WIDGETS, undefined, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
    await client.create('other', WIDGETS, undefined, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 9 } });
    const withStatus = await client.updateStatus('root', WIDGETS, undefined, { ...created, status: { phase: 'Ready' }, spec: { size: 100 } });
    expect(withStatus['status']).toEqual({ phase: 'Ready' });
    // The status subresource ignores spec changes.
    expect(withStatus['spec']).toEqual({ size: 1 });
    expect((await client.get('other', WIDGETS, undefined, 'w'))['spec']).toEqual({ size: 9 });
    expect((await client.get('other', WIDGETS, undefined, 'w'))['status']).toBeUndefined();
  });

  it('applies merge patches and JSON patches, to the object and to its status', async () => {
    await client.create('root', WIDGETS, undefined, { metadata: { name: 'patched' }, spec: { a: 1, b: 2 } });
    const merged = await client.patch('root', WIDGETS, undefined, 'patched', { spec: { b: null, c: 3 } }, 'merge');
    expect(merged['spec']).toEqual({ a: 1, c: 3 });
    const jsonPatched = await client.patch('root', WIDGETS, undefined, 'patched', [{ op: 'replace', path: '/spec/a', value: 10 }], 'json');
    expect(jsonPatched['spec']).toEqual({ a: 10, c: 3 });
    const status = await client.patch('root', WIDGETS, undefined, 'patched', { status: { ready: true } }, 'merge', 'status');
    expect(status['status']).toEqual({ ready: true });
    const failed = await rejection(client.patch('root', WIDGETS, undefined, 'patched', [{ op: 'test', path: '/spec/a', value: 0 }], 'json'));
    expect(failed.httpStatus).toBeGreaterThanOrEqual(400);
  });

  it('returns the source\'s 409 Conflict for a stale resourceVersion, with the source\'s message', async () => {
    const created = await client.create('root', CONFIGMAPS, 'default', configMap('stale', { v: '1' }));
    await client.update('root', CONFIGMAPS, 'default', { ...created, data: { v: '2' } });
    const err = await rejection(client.update('root', CONFIGMAPS, 'default', { ...created, data: { v: '3' } }));
    expect(err.code).toBe('Conflict');
    expect(err.httpStatus).toBe(409);
    expect(err.message).toContain('the object has been modified');
    expect(err.details).toMatchObject({ name: 'stale' });
  });

  it('returns NotFound, AlreadyExists and Invalid with the source\'s details', async () => {
    const missing = await rejection(client.get('root', CONFIGMAPS, 'default', 'does-not-exist'));
    expect(missing.code).toBe('NotFound');
    expect(missing.message).toContain('does-not-exist');
    await client.create('root', CONFIGMAPS, 'default', configMap('twice'));
    expect((await rejection(client.create('root', CONFIGMAPS, 'default', configMap('twice')))).code).toBe('AlreadyExists');
    const invalid = await rejection(client.create('root', CONFIGMAPS, 'default', configMap('Bad_Name')));
    expect(invalid.code).toBe('Invalid');
    expect(invalid.details.causes?.some((c) => c.field === 'metadata.name')).toBe(true);
    const unknownResource = await rejection(client.list('root', { group: 'nope.example.com', version: 'v1', resource: 'things' }));
    expect(unknownResource.code).toBe('NotFound');
  });

  it('stores nothing on dry-run writes', async () => {
    const dry = await client.create('root', CONFIGMAPS, 'default', configMap('dry', { x: '1' }), { dryRun: true });
    expect(dry.metadata.name).toBe('dry');
    expect((await rejection(client.get('root', CONFIGMAPS, 'default', 'dry'))).code).toBe('NotFound');

    const real = await client.create('root', CONFIGMAPS, 'default', configMap('wet', { x: '1' }));
    await client.update('root', CONFIGMAPS, 'default', { ...real, data: { x: '2' } }, { dryRun: true });
    await client.patch('root', CONFIGMAPS, 'default', 'wet', { data: { x: '3' } }, 'merge', undefined, { dryRun: true });
    await client.delete('root', CONFIGMAPS, 'default', 'wet', { dryRun: true });
    const after = await client.get('root', CONFIGMAPS, 'default', 'wet');
    expect(after['data']).toEqual({ x: '1' });
    expect(after.metadata.resourceVersion).toBe(real.metadata.resourceVersion);
  });

  it('honours delete preconditions', async () => {
    const created = await client.create('root', CONFIGMAPS, 'default', configMap('guarded'));
    const wrongUid = await rejection(client.delete('root', CONFIGMAPS, 'default', 'guarded', { preconditions: { uid: 'not-the-uid' } }));
    expect(wrongUid.code).toBe('Conflict');
    await client.delete('root', CONFIGMAPS, 'default', 'guarded', { preconditions: { uid: created.metadata.uid ?? '' } });
    expect((await rejection(client.get('root', CONFIGMAPS, 'default', 'guarded'))).code).toBe('NotFound');
  });

  it('reports a source that cannot be reached as ServiceUnavailable naming the source', async () => {
    const down = new DynamicClient(embeddedSource(`http://127.0.0.1:${await freePort()}`));
    const err = await rejection(down.get('root', CONFIGMAPS, 'default', 'x'));
    expect(err.code).toBe('ServiceUnavailable');
    expect(err.message).toMatch(/^source embedded is unreachable: .*ECONNREFUSED/);
  });

  it('refuses to update an object without a name', async () => {
    const nameless: KubeObject = { metadata: {} };
    expect((await rejection(client.update('root', CONFIGMAPS, 'default', nameless))).code).toBe('BadRequest');
  });
});
