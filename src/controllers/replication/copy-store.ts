// The copies of one replication controller in the cache store: finding the copy of a source
// object (by index, never by parsing names), choosing a free name, and writing copies.

import { isAppError } from '../../errors.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { schemaOf } from '../../apimachinery/gvr.js';
import { cacheLocation } from '../../cachedobjects/cache-location.js';
import { AWAY, AWAY_FROM_READABLE_NAME } from '../../cachedobjects/away-from-readable-name.js';
import { cachedObjectNameToFind, hashedName } from '../../cachedobjects/cached-object-name.js';
import { flatString } from '../../apimachinery/flat-string.js';
import { ORIGIN_FIELDS, hasOrigin } from '../../cachedobjects/cached-object-origin.js';
import { trustedOrigin } from '../../cachedobjects/trusted-origin.js';
import { BY_SOURCE_CLUSTER_AND_SCHEMA, originalCopyQuery, sourceClusterAndSchemaKey } from '../../cachedobjects/cached-object-indexes.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../../cachedobjects/cached-object-resource.js';
import { isCachedObjectUpToDate, unwrapCachedObject, wrapCachedObject } from '../../cachedobjects/wrap-cached-object.js';
import type { IndexReader, ObjectFilter, ObjectKey, ResourceRef, ResourceStore } from '../../store/store.js';
import type { ReplicationSpec } from './replication-spec.js';
import { compareStrings } from '../../apimachinery/compare-strings.js';

/** CopyStore reads and writes the CachedObjects of one (shard, cluster, schema). */
export class CopyStore {
  readonly #cache: ResourceStore & IndexReader;
  readonly #spec: ReplicationSpec;
  readonly #schema: string;
  readonly #ref: ResourceRef;
  readonly #adopt: ((listed: KubeObject, kept: KubeObject) => void) | undefined;
  /** lastReadable is the readable name worked out last (see #readableName). */
  #lastReadable: { readonly namespace: string; readonly name: string; readonly readable: string } | undefined;
  /** schemaFilter narrows a cache watch of this location to this schema's copies. */
  readonly schemaFilter: ObjectFilter;
  /** locationKey is this location and schema's BY_SOURCE_CLUSTER_AND_SCHEMA value. */
  readonly #locationKey: string;

  /**
   * adopt hears of an up-to-date copy that holds its own tree of the original, equal to the listed
   * one: a copy read back from a durable store after a restart. The source view then keeps the
   * copy's tree and the listed one is garbage, as after a sync in one process, where the copy holds
   * the view's object by reference.
   */
  constructor(cache: ResourceStore & IndexReader, spec: ReplicationSpec, adopt?: (listed: KubeObject, kept: KubeObject) => void) {
    this.#cache = cache;
    this.#adopt = adopt;
    this.#spec = spec;
    this.#schema = schemaOf(spec.gvr);
    this.#ref = { cluster: cacheLocation(spec.shard, spec.cluster), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE };
    const schema = this.#schema;
    this.#locationKey = sourceClusterAndSchemaKey(spec.shard, spec.cluster, schema);
    this.schemaFilter = { key: `schema=${schema}`, matches: (obj) => hasOrigin(obj) && ORIGIN_FIELDS.schema(obj) === schema };
  }

  /** count is the number of this schema's copies the cache holds at this location (one index bucket's size). */
  count(): number {
    return this.#cache.indexedCount(this.#ref, BY_SOURCE_CLUSTER_AND_SCHEMA, this.#locationKey);
  }

  /** all lists this schema's copies at this location, in no particular order. */
  all(): KubeObject[] {
    return this.#cache.indexed(this.#ref, BY_SOURCE_CLUSTER_AND_SCHEMA, this.#locationKey);
  }

  /**
   * find returns the copy of source object namespace/name, if the cache holds one. The index finds
   * intact copies; a copy whose labels were tampered with is found under a name it can have: the
   * readable one, or the hashed one (used when another original held the readable name).
   */
  find(namespace: string, name: string): KubeObject | undefined {
    const query = originalCopyQuery({ shard: this.#spec.shard, cluster: this.#spec.cluster, schema: this.#schema, namespace, name });
    // The synchronous index read: this runs for every source object, and a list's page, sort and
    // promise were the largest allocation of a sync after the parsed source lists.
    const candidates = this.#cache.indexed({ ...this.#ref, cluster: query.cluster }, query.index.name, query.index.value);
    // Normally one; copies made by hand may add more, and the first by name wins, as in a list.
    if (candidates.length > 1) candidates.sort((a, b) => compareStrings(a.metadata.name ?? '', b.metadata.name ?? ''));
    const indexed = candidates.find(query.matches);
    if (indexed !== undefined) return indexed;
    const readable = this.#holderOf(this.#readableName(namespace, name), namespace, name);
    // The hashed name (a SHA-256) is only worked out when the readable name holds no copy of this
    // original and something in the location sits away from its readable name (away-from-readable-name.ts).
    if (readable !== undefined || this.#cache.indexedCount(this.#ref, AWAY_FROM_READABLE_NAME, AWAY) === 0) return readable;
    return this.#holderOf(hashedName(this.#spec.gvr, namespace, name), namespace, name);
  }

  #holderOf(candidate: string, namespace: string, name: string): KubeObject | undefined {
    const holder = this.#cache.peek(this.#keyOf(candidate));
    return holder !== undefined && this.#mayBeCopyOf(holder, namespace, name) ? holder : undefined;
  }

  /** desired is the copy a source object should have; an existing copy keeps its name. */
  desired(original: KubeObject, existing: KubeObject | undefined): KubeObject {
    const name = existing?.metadata.name ?? this.#freeName(original);
    return wrapCachedObject({
      original,
      gvr: this.#spec.gvr,
      shard: this.#spec.shard,
      cluster: this.#spec.cluster,
      identityHash: this.#spec.identityHash,
      name,
      schema: this.#schema,
    });
  }

  /** isUpToDate tells whether an existing copy already equals the desired one (see adopt). */
  isUpToDate(existing: KubeObject, desired: KubeObject): boolean {
    if (!isCachedObjectUpToDate(existing, desired)) return false;
    const kept = unwrapCachedObject(existing);
    const listed = unwrapCachedObject(desired);
    if (kept !== listed) this.#adopt?.(listed, kept);
    return true;
  }

  /** create stores a new copy (the store's promise as it is: no frame of its own per copy). */
  create(copy: KubeObject): Promise<unknown> {
    return this.#cache.create(this.#ref, copy);
  }

  /** update replaces a copy, guarded by the version read, so a concurrent write is retried. */
  update(copy: KubeObject, existing: KubeObject): Promise<unknown> {
    const guarded = { ...copy, metadata: { ...copy.metadata, resourceVersion: existing.metadata.resourceVersion } };
    return this.#cache.update(this.#keyOf(existing), guarded);
  }

  /** delete removes a copy; one already gone is fine. */
  async delete(existing: KubeObject): Promise<void> {
    try {
      await this.#cache.delete(this.#keyOf(existing), { ignoreFinalizers: true });
    } catch (err) {
      if (!isAppError(err, 'NotFound')) throw err;
    }
  }

  /** freeName is the readable name unless another original holds it; then the hashed one. */
  #freeName(original: KubeObject): string {
    const namespace = original.metadata.namespace ?? '';
    const name = original.metadata.name ?? '';
    const readable = this.#readableName(namespace, name);
    const holder = this.#cache.peek(this.#keyOf(readable));
    // The name is kept as long as the copy lives: stored flat (see flat-string.ts).
    if (holder === undefined || this.#mayBeCopyOf(holder, namespace, name)) return flatString(readable);
    return flatString(hashedName(this.#spec.gvr, namespace, name));
  }

  /**
   * readableName is cachedObjectNameToFind for this schema. A reconcile that finds no copy asks
   * for the same name again to choose a new copy's name (find, then desired): the last one is kept.
   */
  #readableName(namespace: string, name: string): string {
    const last = this.#lastReadable;
    if (last !== undefined && last.namespace === namespace && last.name === name) return last.readable;
    const readable = cachedObjectNameToFind(this.#spec.gvr, namespace, name);
    this.#lastReadable = { namespace, name, readable };
    return readable;
  }

  /**
   * mayBeCopyOf: the holder is an intact copy of this original, or a tampered one (its labels do not
   * agree with its name), which sits under this original's readable name and is ours to repair.
   */
  #mayBeCopyOf(holder: KubeObject, namespace: string, name: string): boolean {
    const origin = trustedOrigin(holder);
    if (origin === undefined) return true;
    return origin.schema === this.#schema && origin.namespace === namespace && origin.name === name;
  }

  #keyOf(copyOrName: KubeObject | string): ObjectKey {
    const name = typeof copyOrName === 'string' ? copyOrName : (copyOrName.metadata.name ?? '');
    return { ...this.#ref, namespace: '', name };
  }
}
