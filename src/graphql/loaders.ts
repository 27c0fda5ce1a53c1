// Mercurius loaders: every lookup by gvr + name made at one level of one request goes to the read
// model as one getObjects call (mercurius batches a loader's calls of one tick, per request).
// - Query.object: the originals asked for by `object(...)` fields (aliases batch together).
// - CachedObject.owners: the owners named by the ownerReferences of every CachedObject at a level.
//   An ownerReference names apiVersion and kind, not the resource: the kind is mapped to its
//   resource and scope through the ClusterCachedResources' kind and scope annotations,
//   read once per request. Only replicated kinds can have cached owners anyway.

import type { MercuriusLoaders } from 'mercurius';
import type { KubeObject, OwnerReference } from '../apimachinery/object-meta.js';
import { cachedObjectOrigin } from '../cachedobjects/cached-object-origin.js';
import { isAppError } from '../errors.js';
import type { FoundObject, ObjectRef, ReadModel } from '../read/read-model.js';
import { readWaitOf } from './read-wait-args.js';
import { graphqlAccess } from './graphql-access.js';
import type { GraphqlAccess } from './graphql-access.js';

/** RESOURCE_KIND_ANNOTATION and RESOURCE_SCOPE_ANNOTATION are set on each CCR by its controller. */
const RESOURCE_KIND_ANNOTATION = 'cache.kcp.io/resource-kind';
const RESOURCE_SCOPE_ANNOTATION = 'cache.kcp.io/resource-scope';

/** ObjectArgs are the arguments of Query.object. */
export interface ObjectArgs {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly name: string;
  readonly namespace?: string | null;
  readonly cluster?: string | null;
  readonly shard?: string | null;
  readonly minResourceVersion?: readonly string[] | null;
  readonly consistent?: boolean | null;
}

/** A replicated kind: its resource, version and scope. */
interface KindEntry {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

/** createLoaders makes the loaders over one read model (narrowed per operation by access). */
export function createLoaders(read: ReadModel, access: GraphqlAccess = graphqlAccess(read, undefined, false)): MercuriusLoaders {
  // Per request (keyed by the request's context object): the kind → resource map of the CCRs.
  const kindsOfRequest = new WeakMap<object, Promise<Map<string, KindEntry[]>>>();
  const kindsFor = (context: object): Promise<Map<string, KindEntry[]>> => {
    let kinds = kindsOfRequest.get(context);
    if (!kinds) {
      kinds = access.read(context).clusterCachedResources().then(kindIndex);
      kindsOfRequest.set(context, kinds);
    }
    return kinds;
  };

  return {
    Query: {
      object: async (queries: Array<{ obj: unknown; params: ObjectArgs }>, context: object) => {
        const scoped = access.read(context);
        // Each lookup first waits for what it asks (minResourceVersion, a consistent read); one
        // that fails gets only its error. Consistent lookups share one revision request. Most
        // wait for nothing, and then cost no promise each.
        const waits = queries.map(({ params }) => startWait(() => scoped.waitForRead(readWaitOf(params))));
        const waited = waits.every((wait) => wait === undefined) ? [] : await Promise.all(waits);
        const found = await scoped.getObjects(queries.map(({ params }) => objectRef(params)));
        return found.map((result, i) => waited[i] ?? (result instanceof Error ? result : result.object));
      },
    },
    CachedObject: {
      owners: async (queries: Array<{ obj: KubeObject; params: unknown }>, context: object) => {
        const kinds = await kindsFor(context);
        const wanted = queries.map(({ obj }) => ownerRefs(obj, kinds));
        const unique = new Map(wanted.flat().map((owner) => [refKey(owner.ref), owner.ref]));
        const refs = [...unique.values()];
        const results = refs.length > 0 ? await access.read(context).getObjects(refs) : [];
        const byKey = new Map(refs.map((ref, i) => [refKey(ref), results[i]]));
        return wanted.map((owners) => {
          const cached: KubeObject[] = [];
          for (const { ref, uid } of owners) {
            const result = byKey.get(refKey(ref));
            if (result === undefined || isAppError(result, 'NotFound')) continue;
            if (result instanceof Error) return result;
            if (isOwner(result, uid)) cached.push(result.cachedObject);
          }
          return cached;
        });
      },
    },
  };
}

/** objectRef turns Query.object's arguments into a read-model reference (null = not given). */
export function objectRef(args: ObjectArgs): ObjectRef {
  return {
    group: args.group, version: args.version, resource: args.resource, name: args.name,
    ...(args.namespace != null ? { namespace: args.namespace } : {}),
    ...(args.cluster != null ? { cluster: args.cluster } : {}),
    ...(args.shard != null ? { shard: args.shard } : {}),
  };
}

/** kindIndex maps `<group>/<kind>` to the replicated resources of that kind, from the CCRs. */
function kindIndex(ccrs: readonly KubeObject[]): Map<string, KindEntry[]> {
  const index = new Map<string, KindEntry[]>();
  for (const ccr of ccrs) {
    const spec = ccr['spec'] as { group?: unknown; version?: unknown; resource?: unknown } | undefined;
    const kind = ccr.metadata.annotations?.[RESOURCE_KIND_ANNOTATION];
    if (!kind || typeof spec?.version !== 'string' || typeof spec.resource !== 'string') continue;
    const group = typeof spec.group === 'string' && spec.group !== 'core' ? spec.group : '';
    const entry = { group, version: spec.version, resource: spec.resource, namespaced: ccr.metadata.annotations?.[RESOURCE_SCOPE_ANNOTATION] === 'Namespaced' };
    index.set(`${group}/${kind}`, [...(index.get(`${group}/${kind}`) ?? []), entry]);
  }
  return index;
}

/** ownerRefs are the lookups for a CachedObject's owners, in its own shard, cluster and namespace. */
function ownerRefs(cachedObject: KubeObject, kinds: Map<string, KindEntry[]>): Array<{ ref: ObjectRef; uid: string }> {
  const origin = cachedObjectOrigin(cachedObject);
  const raw = (cachedObject['spec'] as { raw?: KubeObject } | undefined)?.raw;
  const owners: readonly OwnerReference[] = raw?.metadata?.ownerReferences ?? [];
  if (!origin) return [];
  return owners.flatMap((owner) => {
    const slash = owner.apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : owner.apiVersion.slice(0, slash);
    const version = owner.apiVersion.slice(slash + 1);
    const entries = kinds.get(`${group}/${owner.kind}`) ?? [];
    const entry = entries.find((e) => e.version === version) ?? entries[0];
    if (!entry) return [];
    const ref: ObjectRef = {
      group: entry.group, version: entry.version, resource: entry.resource, name: owner.name,
      namespace: entry.namespaced ? origin.namespace : '', cluster: origin.cluster, shard: origin.shard,
    };
    return [{ ref, uid: owner.uid }];
  });
}

/** isOwner: an object of the same name but another uid (deleted and re-created) is not the owner. */
function isOwner(found: FoundObject, uid: string): boolean {
  return !uid || found.object.metadata.uid === uid;
}

function refKey(ref: ObjectRef): string {
  return JSON.stringify([ref.shard, ref.cluster, ref.group, ref.version, ref.resource, ref.namespace, ref.name]);
}

/** startWait starts a read's wait: undefined when it may go ahead at once, else the wait's outcome (undefined, or the error it failed with). */
function startWait(wait: () => Promise<void> | undefined): Promise<Error | undefined> | undefined {
  let waiting: Promise<void> | undefined;
  try {
    waiting = wait();
  } catch (err) {
    return Promise.resolve(asError(err));
  }
  return waiting?.then(() => undefined, asError);
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
