// Builders and in-test implementations of the closures/interfaces the CCR reconcile steps reach
// the world through (ccr-deps.ts): a client that records what it writes, a purger over a count
// table, children that record how they were driven, and a context builder.

import pino from 'pino';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { schemaOf } from '../../../../src/apimachinery/gvr.js';
import type { GroupVersionResource } from '../../../../src/apimachinery/gvr.js';
import type { LabelSelector } from '../../../../src/apimachinery/selector.js';
import { WorkingStatus } from '../../../../src/controllers/clustercachedresources/ccr-status.js';
import { CCR_FINALIZER, readCcr, RESOURCE_KIND_ANNOTATION, RESOURCE_SCOPE_ANNOTATION } from '../../../../src/controllers/clustercachedresources/ccr-view.js';
import type { Child, CcrClient, CopyPurger, ResolvedResource, ResolveResource, StartChild } from '../../../../src/controllers/clustercachedresources/ccr-deps.js';
import { ChildRegistry } from '../../../../src/controllers/clustercachedresources/child-registry.js';
import type { CcrEvent } from '../../../../src/controllers/clustercachedresources/ccr-events.js';
import type { ReconcileContext } from '../../../../src/controllers/clustercachedresources/reconcile-context.js';
import type { ReplicationCounts } from '../../../../src/controllers/replication/replication-controller.js';
import type { ReplicationSpec } from '../../../../src/controllers/replication/replication-spec.js';

export const SHARD = 'embedded';
export const CLUSTER = 'root';
export const NOW = '2026-02-01T10:00:00Z';
export const EARLIER = '2026-01-01T00:00:00Z';
export const GVR: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
export const KEY = `${CLUSTER}|instances`;

/** CcrOptions describe a ClusterCachedResource for the builder. */
export interface CcrOptions {
  readonly name?: string;
  readonly gvr?: Partial<GroupVersionResource>;
  readonly created?: string;
  readonly deleting?: boolean;
  /** finalizers defaults to [CCR_FINALIZER]. */
  readonly finalizers?: string[];
  /** annotations defaults to the kind/scope of an Instance (cluster-scoped). */
  readonly annotations?: Record<string, string>;
  readonly secretRef?: { namespace?: string; name: string };
  readonly labelSelector?: unknown;
  readonly status?: Record<string, unknown>;
}

/** KIND_ANNOTATIONS are the annotations a resolved cluster-scoped Instance leads to. */
export const KIND_ANNOTATIONS: Readonly<Record<string, string>> = Object.freeze({
  [RESOURCE_KIND_ANNOTATION]: 'Instance',
  [RESOURCE_SCOPE_ANNOTATION]: 'Cluster',
});

/** ccr builds a stored ClusterCachedResource (frozen, as an informer hands it out). */
export function ccr(opts: CcrOptions = {}): KubeObject {
  const gvr = { ...GVR, ...opts.gvr };
  return deepFreeze({
    apiVersion: 'cache.kcp.io/v1alpha1',
    kind: 'ClusterCachedResource',
    metadata: {
      name: opts.name ?? 'instances',
      uid: `uid-${opts.name ?? 'instances'}`,
      resourceVersion: '1',
      creationTimestamp: opts.created ?? EARLIER,
      finalizers: opts.finalizers ?? [CCR_FINALIZER],
      annotations: opts.annotations ?? { ...KIND_ANNOTATIONS },
      ...(opts.deleting ? { deletionTimestamp: NOW } : {}),
    },
    spec: {
      ...gvr,
      ...(opts.secretRef ? { identity: { secretRef: opts.secretRef } } : {}),
      ...(opts.labelSelector !== undefined ? { labelSelector: opts.labelSelector } : {}),
    },
    ...(opts.status ? { status: opts.status } : {}),
  });
}

/** Patch is one recorded write of the client. */
export interface Patch {
  readonly cluster: string;
  readonly name: string;
  readonly body: Record<string, unknown>;
}

/** RecordingClient is a CcrClient over a secret table that records every write. */
export class RecordingClient implements CcrClient {
  readonly patches: Patch[] = [];
  readonly statusPatches: Patch[] = [];
  readonly createdSecrets: KubeObject[] = [];
  readonly namespaces = new Set<string>();
  readonly events: Array<{ cluster: string; ccr: string } & CcrEvent> = [];
  readonly secrets = new Map<string, KubeObject>();
  /** onPatch lets a test apply a metadata/spec patch to its stored CCR. */
  onPatch: ((patch: Patch) => void) | undefined;
  onStatus: ((patch: Patch) => void) | undefined;

  async patchCcr(cluster: string, name: string, patch: Record<string, unknown>): Promise<void> {
    const recorded = { cluster, name, body: structuredClone(patch) };
    this.patches.push(recorded);
    this.onPatch?.(recorded);
  }

  async patchCcrStatus(cluster: string, name: string, status: Record<string, unknown>): Promise<void> {
    const recorded = { cluster, name, body: structuredClone(status) };
    this.statusPatches.push(recorded);
    this.onStatus?.(recorded);
  }

  async getSecret(cluster: string, namespace: string, name: string): Promise<KubeObject | undefined> {
    return this.secrets.get(`${cluster}/${namespace}/${name}`);
  }

  async createSecret(cluster: string, secret: KubeObject): Promise<void> {
    this.createdSecrets.push(secret);
    this.secrets.set(`${cluster}/${secret.metadata.namespace ?? ''}/${secret.metadata.name ?? ''}`, secret);
  }

  async ensureNamespace(cluster: string, name: string): Promise<void> {
    this.namespaces.add(`${cluster}/${name}`);
  }

  async recordEvent(cluster: string, ccr: { readonly name: string; readonly uid: string }, event: CcrEvent): Promise<void> {
    this.events.push({ cluster, ccr: ccr.name, ...event });
  }

  /** putSecret stores a secret whose data.key is key (base64-encoded, as Kubernetes stores data). */
  putSecret(namespace: string, name: string, key: string | undefined): void {
    const data = key === undefined ? {} : { key: Buffer.from(key, 'utf8').toString('base64') };
    this.secrets.set(`${CLUSTER}/${namespace}/${name}`, deepFreeze({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data }));
  }
}

/** resolver answers REST mappings from a table keyed by schema; others are unknown. */
export function resolver(table: Record<string, ResolvedResource> = { [schemaOf(GVR)]: { kind: 'Instance', namespaced: false } }): ResolveResource & { calls: number } {
  const fn = Object.assign(
    async (_cluster: string, gvr: GroupVersionResource) => {
      fn.calls++;
      return table[schemaOf(gvr)];
    },
    { calls: 0 },
  );
  return fn;
}

/** TablePurger is a CopyPurger over a table of copy counts per (shard, cluster, schema). */
export class TablePurger implements CopyPurger {
  readonly counts = new Map<string, number>();
  readonly purged: string[] = [];
  /** survivors is how many copies a purge leaves (e.g. written again meanwhile). */
  survivors = 0;

  async purge(shard: string, cluster: string, gvr: GroupVersionResource): Promise<void> {
    const key = `${shard}|${cluster}|${schemaOf(gvr)}`;
    this.purged.push(key);
    this.counts.set(key, Math.min(this.survivors, this.counts.get(key) ?? 0));
  }

  async count(shard: string, cluster: string, gvr: GroupVersionResource): Promise<number> {
    return this.counts.get(`${shard}|${cluster}|${schemaOf(gvr)}`) ?? 0;
  }
}

/** FakeChild records how its parent drives it. */
export class FakeChild implements Child {
  stopped = false;
  selectors: string[] = [];
  value: ReplicationCounts = { local: 0, cache: 0 };
  synced = true;

  constructor(readonly spec: ReplicationSpec, readonly onCountsChanged: () => void) {
    this.selectors.push(spec.selector.toString());
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  updateSelector(selector: LabelSelector): void {
    this.selectors.push(selector.toString());
  }

  counts(): ReplicationCounts {
    return this.value;
  }

  hasSynced(): boolean {
    return this.synced;
  }
}

/** Children is a StartChild that keeps every child it started. */
export function children(configure: (child: FakeChild) => void = () => undefined): StartChild & { started: FakeChild[] } {
  const started: FakeChild[] = [];
  const start = async (spec: ReplicationSpec, onCountsChanged: () => void): Promise<Child> => {
    const child = new FakeChild(spec, onCountsChanged);
    configure(child);
    started.push(child);
    return child;
  };
  return Object.assign(start, { started });
}

/** World is everything a context is built over. */
export interface World {
  readonly client: RecordingClient;
  readonly resolve: ResolveResource & { calls: number };
  readonly purger: TablePurger;
  readonly start: StartChild & { started: FakeChild[] };
  readonly children: ChildRegistry;
  others: KubeObject[];
}

/** world builds a fresh set of fakes. */
export function world(opts: { resolve?: ResolveResource & { calls: number }; configureChild?: (child: FakeChild) => void } = {}): World {
  const purger = new TablePurger();
  const start = children(opts.configureChild);
  return {
    client: new RecordingClient(),
    resolve: opts.resolve ?? resolver(),
    purger,
    start,
    children: new ChildRegistry(start, purger),
    others: [],
  };
}

/** context builds the ReconcileContext of one pass over a stored CCR. */
export function context(w: World, stored: KubeObject): ReconcileContext {
  const view = readCcr(CLUSTER, stored);
  return {
    key: `${CLUSTER}|${view.name}`,
    shard: SHARD,
    ccr: view,
    status: new WorkingStatus(view.status, NOW),
    client: w.client,
    resolve: w.resolve,
    children: w.children,
    purger: w.purger,
    others: () => [stored, ...w.others],
    onCountsChanged: () => undefined,
    log: pino({ level: 'silent' }),
  };
}

/** copyKey is the TablePurger key of a GVR's copies in this shard and cluster. */
export function copyKey(gvr: GroupVersionResource = GVR): string {
  return `${SHARD}|${CLUSTER}|${schemaOf(gvr)}`;
}
