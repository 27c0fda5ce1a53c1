// reconcileReplication, case by case as its header comment numbers them, over a small world of
// source objects and copies reached only through the ReplicationDeps closures. Copies are built
// by the real wrapCachedObject and compared by the real isCachedObjectUpToDate.

import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import type { LabelSelector } from '../../../../src/apimachinery/selector.js';
import type { GroupVersionResource } from '../../../../src/apimachinery/gvr.js';
import { cachedObjectName } from '../../../../src/cachedobjects/cached-object-name.js';
import { isCachedObjectUpToDate, unwrapCachedObject, wrapCachedObject } from '../../../../src/cachedobjects/wrap-cached-object.js';
import { reconcileReplication, shouldReplicate } from '../../../../src/controllers/replication/replication-reconcile.js';
import type { ReplicationDeps, ReplicationOutcome } from '../../../../src/controllers/replication/replication-reconcile.js';

const GVR: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const NOW = '2026-01-01T00:00:00Z';

interface InstanceOptions {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly rv?: string;
  readonly deleting?: boolean;
  readonly finalizers?: string[];
  readonly size?: string;
}

/** instance builds a source object (frozen, as an informer hands it out). */
function instance(opts: InstanceOptions = {}): KubeObject {
  return deepFreeze({
    apiVersion: 'machines.svm.io/v1alpha1',
    kind: 'Instance',
    metadata: {
      name: opts.name ?? 'web-1',
      ...(opts.namespace ? { namespace: opts.namespace } : {}),
      uid: `uid-${opts.name ?? 'web-1'}`,
      resourceVersion: opts.rv ?? '10',
      labels: opts.labels ?? { app: 'web' },
      ...(opts.deleting ? { deletionTimestamp: NOW } : {}),
      ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
    },
    spec: { size: opts.size ?? 'large' },
  });
}

/** copyOf is the copy the controller would write for a source object. */
function copyOf(source: KubeObject, name?: string): KubeObject {
  const ns = source.metadata.namespace ?? '';
  return wrapCachedObject({
    original: source,
    gvr: GVR,
    shard: 'embedded',
    cluster: 'root',
    identityHash: 'id',
    name: name ?? cachedObjectName(GVR, ns, source.metadata.name ?? ''),
  });
}

/** edited returns a structured copy of obj changed by fn (stored objects are frozen). */
function edited(obj: KubeObject, fn: (o: { metadata: Record<string, unknown> } & Record<string, unknown>) => void): KubeObject {
  const clone = structuredClone(obj) as { metadata: Record<string, unknown> } & Record<string, unknown>;
  fn(clone);
  return clone as KubeObject;
}

type Write = { readonly op: 'create' | 'update' | 'delete'; readonly copy: KubeObject };

/** World is the source side and the cache side as the closures see them, plus what was written. */
class World {
  readonly sources = new Map<string, KubeObject>();
  readonly copies = new Map<string, KubeObject>();
  readonly writes: Write[] = [];
  selector: LabelSelector;

  constructor(opts: { source?: KubeObject; copy?: KubeObject; selector?: string }) {
    this.selector = parseLabelSelector(opts.selector ?? 'app=web');
    if (opts.source) this.sources.set(keyOf(opts.source), opts.source);
    if (opts.copy) this.copies.set(keyOf(unwrapCachedObject(opts.copy)), opts.copy);
  }

  deps(): ReplicationDeps {
    return {
      getSource: (ns, name) => this.sources.get(`${ns}/${name}`),
      getCopy: (ns, name) => this.copies.get(`${ns}/${name}`),
      selector: () => this.selector,
      desiredCopy: (source, existing) => copyOf(source, existing?.metadata.name),
      isUpToDate: (existing, desired) => isCachedObjectUpToDate(existing, desired),
      createCopy: async (copy) => {
        this.writes.push({ op: 'create', copy });
        this.copies.set(keyOf(unwrapCachedObject(copy)), copy);
      },
      updateCopy: async (copy, existing) => {
        this.writes.push({ op: 'update', copy });
        this.copies.delete(keyOf(unwrapCachedObject(existing)));
        this.copies.set(keyOf(unwrapCachedObject(copy)), copy);
      },
      deleteCopy: async (existing) => {
        this.writes.push({ op: 'delete', copy: existing });
        this.copies.delete(keyOf(unwrapCachedObject(existing)));
      },
    };
  }
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

describe('reconcileReplication', () => {
  const source = instance({ rv: '10' });
  const upToDate = copyOf(source);

  interface Row {
    readonly name: string;
    readonly source?: KubeObject;
    readonly copy?: KubeObject;
    readonly selector?: string;
    readonly outcome: ReplicationOutcome;
    /** writes lists op and copy name of every write, in order. */
    readonly writes: ReadonlyArray<readonly [Write['op'], string]>;
    /** after is the source object the copy must wrap afterwards; null = no copy left. */
    readonly after: KubeObject | null;
  }

  const readable = 'v1alpha1.instances.machines.svm.io.web-1';
  const rows: Row[] = [
    { name: 'case 1: the source object is absent → delete the copy', copy: upToDate, outcome: 'deleted', writes: [['delete', readable]], after: null },
    { name: 'case 1: the source object is absent, no copy either → nothing', outcome: 'absent', writes: [], after: null },
    {
      name: 'case 2: the source object is deleting with no finalizers left → delete the copy',
      source: instance({ deleting: true }), copy: upToDate, outcome: 'deleted', writes: [['delete', readable]], after: null,
    },
    {
      name: 'case 2: the source object is deleting with no finalizers left, no copy → nothing',
      source: instance({ deleting: true, finalizers: [] }), outcome: 'absent', writes: [], after: null,
    },
    {
      name: 'case 3: the source object no longer matches the selector → delete the copy',
      source: instance({ labels: { app: 'db' } }), copy: upToDate, outcome: 'deleted', writes: [['delete', readable]], after: null,
    },
    {
      name: 'case 3: the selector changed and no longer matches the source object → delete the copy',
      source, copy: upToDate, selector: 'app=db', outcome: 'deleted', writes: [['delete', readable]], after: null,
    },
    {
      name: 'case 3: an unselected source object without a copy → nothing',
      source: instance({ labels: {} }), outcome: 'absent', writes: [], after: null,
    },
    { name: 'case 4: the copy exists and equals what it should be → nothing', source, copy: upToDate, outcome: 'unchanged', writes: [], after: source },
    {
      name: 'case 4: an equal deep copy (not the same object) → nothing',
      source, copy: structuredClone(upToDate), outcome: 'unchanged', writes: [], after: source,
    },
    { name: 'case 5: there is no copy → create it', source, outcome: 'created', writes: [['create', readable]], after: source },
    {
      name: 'case 5: an empty selector selects an unlabelled source object → create it',
      source: instance({ labels: {} }), selector: '', outcome: 'created', writes: [['create', readable]], after: instance({ labels: {} }),
    },
    {
      name: 'case 6: the copy differs (source changed) → update it',
      source: instance({ rv: '11', size: 'small' }), copy: upToDate, outcome: 'updated', writes: [['update', readable]],
      after: instance({ rv: '11', size: 'small' }),
    },
    {
      name: 'case 6: the copy differs (someone edited its labels) → update it',
      source, copy: edited(upToDate, (c) => { c.metadata['labels'] = { ...(c.metadata['labels'] as object), extra: 'x' }; }),
      outcome: 'updated', writes: [['update', readable]], after: source,
    },
    {
      name: 'case 6: the copy differs (someone edited spec.raw, keeping original-resource-version) → update it',
      source, copy: edited(upToDate, (c) => { ((c['spec'] as { raw: { spec: { size: string } } }).raw.spec).size = 'tiny'; }),
      outcome: 'updated', writes: [['update', readable]], after: source,
    },
    {
      name: 'case 6: a copy under another name keeps that name when updated',
      source: instance({ rv: '11' }), copy: copyOf(source, 'v1alpha1.instances.machines.svm.io.hashed'),
      outcome: 'updated', writes: [['update', 'v1alpha1.instances.machines.svm.io.hashed']], after: instance({ rv: '11' }),
    },
  ];

  it.each(rows)('$name', async (row) => {
    const world = new World({ source: row.source, copy: row.copy, selector: row.selector });
    const outcome = await reconcileReplication(world.deps(), '', 'web-1');
    expect(outcome).toBe(row.outcome);
    expect(world.writes.map((w) => [w.op, w.copy.metadata.name])).toEqual(row.writes);
    const left = world.copies.get('/web-1');
    if (row.after === null) {
      expect(left).toBeUndefined();
    } else {
      expect(left).toBeDefined();
      expect(unwrapCachedObject(left!)).toEqual(row.after);
      expect(isCachedObjectUpToDate(left, copyOf(row.after, left!.metadata.name))).toBe(true);
    }
  });

  it('case 5 then case 4: a second pass over the created copy writes nothing', async () => {
    const world = new World({ source });
    expect(await reconcileReplication(world.deps(), '', 'web-1')).toBe('created');
    expect(await reconcileReplication(world.deps(), '', 'web-1')).toBe('unchanged');
    expect(world.writes.map((w) => w.op)).toEqual(['create']);
  });

  it('a namespaced source object is looked up and copied by namespace and name', async () => {
    const namespaced = instance({ namespace: 'team-a', name: 'settings' });
    const world = new World({ source: namespaced });
    expect(await reconcileReplication(world.deps(), 'team-a', 'settings')).toBe('created');
    expect(world.writes.map((w) => w.copy.metadata.name)).toEqual(['v1alpha1.instances.machines.svm.io.team-a.settings']);
    expect(await reconcileReplication(world.deps(), '', 'settings')).toBe('absent');
  });

  it('a source object deleting but still holding finalizers keeps its copy', async () => {
    const deleting = instance({ deleting: true, finalizers: ['example.com/hold'] });
    const world = new World({ source: deleting, copy: copyOf(deleting) });
    expect(await reconcileReplication(world.deps(), '', 'web-1')).toBe('unchanged');
    expect(world.writes).toEqual([]);
    expect(world.copies.get('/web-1')).toBeDefined();
  });

  it('a source object deleting but still holding finalizers has its copy updated (to show the deletionTimestamp)', async () => {
    const deleting = instance({ rv: '12', deleting: true, finalizers: ['example.com/hold'] });
    const world = new World({ source: deleting, copy: upToDate });
    expect(await reconcileReplication(world.deps(), '', 'web-1')).toBe('updated');
    expect(world.writes.map((w) => w.op)).toEqual(['update']);
    expect(unwrapCachedObject(world.copies.get('/web-1')!).metadata.deletionTimestamp).toBe(NOW);
  });

  it('a source object deleting with finalizers but no longer selected → delete the copy (case 3 wins)', async () => {
    const deleting = instance({ deleting: true, finalizers: ['example.com/hold'], labels: {} });
    const world = new World({ source: deleting, copy: upToDate });
    expect(await reconcileReplication(world.deps(), '', 'web-1')).toBe('deleted');
  });

  it('a failing write is passed on to the caller (the queue retries it)', async () => {
    const world = new World({ source });
    const deps: ReplicationDeps = { ...world.deps(), createCopy: async () => { throw new Error('cache down'); } };
    await expect(reconcileReplication(deps, '', 'web-1')).rejects.toThrow('cache down');
  });
});

describe('shouldReplicate', () => {
  const selected = parseLabelSelector('app=web');
  const rows = [
    { name: 'case 1: absent → no', source: undefined, selector: selected, want: false },
    { name: 'case 2: deleting, no finalizers field → no', source: instance({ deleting: true }), selector: selected, want: false },
    { name: 'case 2: deleting, empty finalizers → no', source: instance({ deleting: true, finalizers: [] }), selector: selected, want: false },
    { name: 'deleting, finalizers left, selected → yes', source: instance({ deleting: true, finalizers: ['x/y'] }), selector: selected, want: true },
    { name: 'case 3: labels do not match → no', source: instance({ labels: { app: 'db' } }), selector: selected, want: false },
    { name: 'case 3: no labels at all → no', source: instance({ labels: {} }), selector: selected, want: false },
    { name: 'present and selected → yes', source: instance(), selector: selected, want: true },
    { name: 'empty selector selects everything → yes', source: instance({ labels: {} }), selector: parseLabelSelector(''), want: true },
    { name: 'set-based selector (notin) → yes', source: instance(), selector: parseLabelSelector('app notin (db)'), want: true },
    { name: 'DoesNotExist selector on a labelled object → no', source: instance(), selector: parseLabelSelector('!app'), want: false },
    { name: 'finalizers without deletionTimestamp, not selected → no', source: instance({ finalizers: ['x/y'], labels: {} }), selector: selected, want: false },
  ];

  it.each(rows)('$name', ({ source, selector, want }) => {
    expect(shouldReplicate(source, selector)).toBe(want);
  });
});
