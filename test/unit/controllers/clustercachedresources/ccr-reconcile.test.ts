// reconcileCcr end to end over fakes: each pass runs the chain over the stored CCR; every write
// the pass makes is applied to the stored CCR (as the API server would) before the next pass.

import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { applyMergePatch } from '../../../../src/apimachinery/merge-patch.js';
import { reconcileCcr } from '../../../../src/controllers/clustercachedresources/ccr-reconcile.js';
import type { CcrPass } from '../../../../src/controllers/clustercachedresources/ccr-reconcile.js';
import { CCR_FINALIZER, IDENTITY_NAMESPACE, readCcr } from '../../../../src/controllers/clustercachedresources/ccr-view.js';
import { identityHashOf } from '../../../../src/controllers/clustercachedresources/reconcile-identity.js';
import { SYNC_POLL_MS } from '../../../../src/controllers/clustercachedresources/reconcile-replication.js';
import pino from 'pino';
import { ccr, CLUSTER, copyKey, GVR, KEY, KIND_ANNOTATIONS, resolver, SHARD, world } from './fakes.js';
import type { World } from './fakes.js';

const T0 = new Date('2026-03-01T12:00:00.123Z');

/** Server holds one stored CCR and applies the client's writes to it. */
class Server {
  stored: KubeObject;
  passes: Array<{ wrote: string[]; requeueAfterMs: number | undefined }> = [];
  #rv = 1;

  constructor(readonly w: World, initial: KubeObject) {
    this.stored = initial;
    w.client.onPatch = (p) => this.#apply(p.body);
    w.client.onStatus = (p) => this.#apply({ status: p.body });
  }

  /** pass runs one reconcile; it returns what it wrote (patch bodies' top-level keys) and its requeue. */
  async pass(now = T0): Promise<{ wrote: string[]; requeueAfterMs: number | undefined }> {
    const before = { patches: this.w.client.patches.length, status: this.w.client.statusPatches.length };
    const pass: CcrPass = {
      key: KEY,
      shard: SHARD,
      client: this.w.client,
      resolve: this.w.resolve,
      children: this.w.children,
      purger: this.w.purger,
      others: () => [this.stored],
      onCountsChanged: () => undefined,
      log: pino({ level: 'silent' }),
      now: () => now,
    };
    const requeueAfterMs = await reconcileCcr(pass, CLUSTER, this.stored);
    const wrote = [
      ...this.w.client.patches.slice(before.patches).map((p) => describePatch(p.body)),
      ...this.w.client.statusPatches.slice(before.status).map(() => 'status'),
    ];
    const result = { wrote, requeueAfterMs };
    this.passes.push(result);
    return result;
  }

  get status(): Record<string, unknown> {
    return readCcr(CLUSTER, this.stored).status as Record<string, unknown>;
  }

  #apply(patch: Record<string, unknown>): void {
    const next = applyMergePatch(structuredClone(this.stored), patch) as KubeObject;
    this.stored = deepFreeze({ ...next, metadata: { ...next.metadata, resourceVersion: String(++this.#rv) } });
  }
}

function describePatch(body: Record<string, unknown>): string {
  const metadata = body['metadata'] as Record<string, unknown> | undefined;
  if (metadata?.['finalizers']) return 'finalizers';
  if (metadata?.['annotations']) return 'annotations';
  if (body['spec']) return 'secretRef';
  return JSON.stringify(body);
}

/** newCcr is a CCR as a user creates it: no finalizer, annotations, secretRef or status. */
function newCcr(labelSelector?: unknown): KubeObject {
  return ccr({ finalizers: [], annotations: {}, ...(labelSelector ? { labelSelector } : {}) });
}

describe('reconcileCcr: create timeline', () => {
  it('a new CCR goes finalizer → annotations → secretRef → Ready over successive passes, then rests', async () => {
    const w = world({ configureChild: (child) => (child.value = { local: 2, cache: 2 }) });
    const server = new Server(w, newCcr({ matchLabels: { app: 'web' } }));

    expect(await server.pass()).toEqual({ wrote: ['finalizers'], requeueAfterMs: undefined });
    expect(server.stored.metadata.finalizers).toEqual([CCR_FINALIZER]);

    expect(await server.pass()).toEqual({ wrote: ['annotations'], requeueAfterMs: undefined });
    expect(server.stored.metadata.annotations).toEqual(KIND_ANNOTATIONS);

    expect(await server.pass()).toEqual({ wrote: ['secretRef'], requeueAfterMs: undefined });
    expect((server.stored['spec'] as { identity: unknown }).identity).toEqual({ secretRef: { namespace: IDENTITY_NAMESPACE, name: 'instances' } });
    expect(w.client.createdSecrets).toHaveLength(1);

    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: undefined });
    const key = Buffer.from((w.client.createdSecrets[0]!['data'] as { key: string }).key, 'base64').toString('utf8');
    const stamp = '2026-03-01T12:00:00Z';
    expect(server.status).toEqual({
      identityHash: identityHashOf(key),
      phase: 'Ready',
      resourceCounts: { local: 2, cache: 2 },
      conditions: [
        { type: 'IdentityValid', status: 'True', reason: 'Valid', lastTransitionTime: stamp },
        { type: 'ReplicationStarted', status: 'True', reason: 'Started', lastTransitionTime: stamp },
        { type: 'ResourceValid', status: 'True', reason: 'Valid', lastTransitionTime: stamp },
      ],
    });
    expect(w.start.started).toHaveLength(1);
    expect(w.start.started[0]!.spec.identityHash).toBe(identityHashOf(key));
    expect(w.start.started[0]!.spec.selector.toString()).toBe('app=web');

    // Nothing left to do: a later pass writes nothing and keeps the transition times.
    expect(await server.pass(new Date('2026-03-01T13:00:00Z'))).toEqual({ wrote: [], requeueAfterMs: undefined });
    expect(w.start.started).toHaveLength(1);
  });

  it('a child still syncing → Initializing and a poll, then Ready once synced', async () => {
    const w = world({ configureChild: (child) => (child.synced = false) });
    const server = new Server(w, newCcr());
    for (let i = 0; i < 3; i++) await server.pass();
    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: SYNC_POLL_MS });
    expect(server.status['phase']).toBe('Initializing');
    w.start.started[0]!.synced = true;
    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: undefined });
    expect(server.status['phase']).toBe('Ready');
  });

  it('counts moving in the child are written on the next pass', async () => {
    const w = world();
    const server = new Server(w, newCcr());
    for (let i = 0; i < 4; i++) await server.pass();
    w.start.started[0]!.value = { local: 5, cache: 4 };
    expect((await server.pass()).wrote).toEqual(['status']);
    expect(server.status['resourceCounts']).toEqual({ local: 5, cache: 4 });
  });

  it('an unknown resource keeps the CCR at ResourceNotFound with a retry, then proceeds once it is served', async () => {
    const table: Record<string, { kind: string; namespaced: boolean }> = {};
    const w = world({ resolve: resolver(table) });
    const server = new Server(w, newCcr());
    await server.pass();
    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: 2000 });
    expect(server.status['conditions']).toEqual([expect.objectContaining({ type: 'ResourceValid', status: 'False', reason: 'ResourceNotFound' })]);
    table['v1alpha1.instances.machines.svm.io'] = { kind: 'Instance', namespaced: true };
    expect((await server.pass()).wrote).toEqual(['annotations']);
    expect(server.stored.metadata.annotations?.['cache.kcp.io/resource-scope']).toBe('Namespaced');
  });
});

describe('reconcileCcr: changes of a running CCR', () => {
  async function ready(w: World): Promise<Server> {
    const server = new Server(w, newCcr({ matchLabels: { app: 'web' } }));
    for (let i = 0; i < 4; i++) await server.pass();
    expect(server.status['phase']).toBe('Ready');
    return server;
  }

  it('a selector change re-selects the running child', async () => {
    const w = world();
    const server = await ready(w);
    server.stored = deepFreeze(applyMergePatch(structuredClone(server.stored), { spec: { labelSelector: { matchLabels: { app: 'db' } } } }) as KubeObject);
    await server.pass();
    expect(w.start.started).toHaveLength(1);
    expect(w.start.started[0]!.selectors).toEqual(['app=web', 'app=db']);
  });

  it('a GVR change stops the old child, purges its copies and starts a new one', async () => {
    const w = world({ resolve: resolver({ 'v1alpha1.instances.machines.svm.io': { kind: 'Instance', namespaced: false }, 'v2.instances.machines.svm.io': { kind: 'Instance', namespaced: false } }) });
    const server = await ready(w);
    w.purger.counts.set(copyKey(), 7);
    server.stored = deepFreeze(applyMergePatch(structuredClone(server.stored), { spec: { version: 'v2' } }) as KubeObject);
    await server.pass();
    expect(w.start.started.map((c) => [c.spec.gvr.version, c.stopped])).toEqual([['v1alpha1', true], ['v2', false]]);
    expect(w.purger.purged).toEqual([copyKey()]);
    expect(w.purger.counts.get(copyKey())).toBe(0);
    expect(w.start.started[1]!.spec.gvr).toEqual({ ...GVR, version: 'v2' });
  });
});

describe('reconcileCcr: delete timeline', () => {
  async function deleting(w: World): Promise<Server> {
    const server = new Server(w, newCcr());
    for (let i = 0; i < 4; i++) await server.pass();
    server.stored = deepFreeze({ ...server.stored, metadata: { ...server.stored.metadata, deletionTimestamp: '2026-03-01T12:30:00Z' } });
    return server;
  }

  it('Deleting → purge → Deleted → finalizer removed', async () => {
    const w = world();
    const server = await deleting(w);
    w.purger.counts.set(copyKey(), 3);

    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: undefined });
    expect(server.status['phase']).toBe('Deleting');
    expect(server.status['conditions']).toContainEqual(expect.objectContaining({ type: 'ResourceValid', status: 'False', reason: 'Deleting' }));
    expect(w.purger.purged).toEqual([]);

    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: undefined });
    expect(server.status['phase']).toBe('Deleted');
    expect(server.status['resourceCounts']).toEqual({ local: 0, cache: 0 });
    expect(w.start.started[0]!.stopped).toBe(true);
    expect(w.purger.counts.get(copyKey())).toBe(0);

    expect(await server.pass()).toEqual({ wrote: ['finalizers'], requeueAfterMs: undefined });
    expect(server.stored.metadata.finalizers).toEqual([]);
  });

  it('copies still appearing keep the CCR Deleting with a requeue until none is left', async () => {
    const w = world();
    const server = await deleting(w);
    w.purger.counts.set(copyKey(), 3);
    w.purger.survivors = 1;
    await server.pass();
    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: 100 });
    expect(server.status['phase']).toBe('Deleting');
    expect(server.status['resourceCounts']).toEqual({ local: 0, cache: 1 });
    w.purger.survivors = 0;
    expect(await server.pass()).toEqual({ wrote: ['status'], requeueAfterMs: undefined });
    expect(server.status['phase']).toBe('Deleted');
  });

  it('deletion never blocks on a missing CRD: the resource is not looked up while deleting', async () => {
    const table: Record<string, { kind: string; namespaced: boolean }> = { 'v1alpha1.instances.machines.svm.io': { kind: 'Instance', namespaced: false } };
    const w = world({ resolve: resolver(table) });
    const server = await deleting(w);
    delete table['v1alpha1.instances.machines.svm.io'];
    const calls = w.resolve.calls;
    await server.pass();
    await server.pass();
    expect((await server.pass()).wrote).toEqual(['finalizers']);
    expect(w.resolve.calls).toBe(calls);
  });

  it('a CCR deleted before it ever got its finalizer is simply left to go', async () => {
    const w = world();
    const server = new Server(w, ccr({ finalizers: [], annotations: {}, deleting: true }));
    expect(await server.pass()).toEqual({ wrote: [], requeueAfterMs: undefined });
    expect(w.start.started).toEqual([]);
  });
});
