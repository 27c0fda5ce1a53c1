// The 409 for a point read that matched copies in several places: it names every place in a
// stable order and says which argument picks one, so a client can retry without guessing.

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { ORIGIN_FIELDS, cachedObjectOrigin } from '../cachedobjects/cached-object-origin.js';
import type { FoundObject } from './read-model.js';

/** sortedByPlace orders matches by shard, cluster and namespace, so a 409 names them in a stable order. */
export function sortedByPlace(found: readonly FoundObject[]): FoundObject[] {
  const place = (f: FoundObject): string => `${f.shard}\u0000${f.cluster}\u0000${f.object.metadata.namespace ?? ''}`;
  return [...found].sort((a, b) => (place(a) < place(b) ? -1 : place(a) > place(b) ? 1 : 0));
}

/**
 * ambiguous is the 409 for a lookup that matched in several places; it names each place as
 * shard/cluster (and /namespace when the matches differ only by namespace), one cause each.
 */
export function ambiguous(what: string, ref: { readonly name: string; readonly group?: string }, matches: readonly KubeObject[]): AppError {
  const places = matches.map((m) => ({
    shard: ORIGIN_FIELDS.shard(m),
    cluster: ORIGIN_FIELDS.cluster(m),
    namespace: cachedObjectOrigin(m)?.namespace ?? '',
  }));
  const byNamespace = new Set(places.map((p) => `${p.shard}/${p.cluster}`)).size < places.length;
  const label = (p: (typeof places)[number]): string => `${p.shard}/${p.cluster}${byNamespace ? `/${p.namespace}` : ''}`;
  const choose = byNamespace ? 'pass namespace (or cluster and shard) to choose one' : 'pass cluster (and shard) to choose one';
  return new AppError('Conflict', `${what} exists in ${places.length} places (${places.map(label).join(', ')}); ${choose}`, {
    name: ref.name,
    group: ref.group,
    causes: places.map((p) => ({
      reason: 'FieldValueDuplicate',
      field: byNamespace ? 'namespace' : 'cluster',
      message: `shard=${p.shard} cluster=${p.cluster}${byNamespace ? ` namespace=${p.namespace}` : ''}`,
    })),
  });
}
