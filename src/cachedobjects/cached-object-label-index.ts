// Indexes over the original's labels and namespace, so the read model answers label-selector and
// namespace lookups from index buckets instead of scanning the cache. A label is indexed twice:
// `key=value` (for `=`, `==` and `in`) and `key` (for exists). Keys cannot contain `=`, so the
// two forms never collide.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { IndexFunc } from '../store/store.js';

/** BY_LABEL indexes CachedObjects by the labels of their original. */
export const BY_LABEL = 'cachegate-byLabel';

/** labelValueKey is the BY_LABEL key of one label with one value. */
export function labelValueKey(key: string, value: string): string {
  return `${key}=${value}`;
}

/** labelPresenceKey is the BY_LABEL key of a label key with any value. */
export function labelPresenceKey(key: string): string {
  return key;
}

/** byLabel lists the BY_LABEL keys of a CachedObject. */
export const byLabel: IndexFunc = (co) => {
  const labels = originalMeta(co)?.['labels'];
  if (!isPlainObject(labels)) return [];
  const keys: string[] = [];
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value !== 'string') continue;
    keys.push(labelValueKey(key, value), labelPresenceKey(key));
  }
  return keys;
};

/** BY_NAMESPACE indexes CachedObjects by the namespace of their original ('' when cluster-scoped). */
export const BY_NAMESPACE = 'cachegate-byNamespace';

/** byNamespace gives the original's namespace. */
export const byNamespace: IndexFunc = (co) => {
  const meta = originalMeta(co);
  if (meta === undefined) return [];
  return [typeof meta['namespace'] === 'string' ? meta['namespace'] : ''];
};

function originalMeta(co: KubeObject): Record<string, unknown> | undefined {
  const spec = co['spec'];
  if (!isPlainObject(spec) || !isPlainObject(spec['raw'])) return undefined;
  const meta = spec['raw']['metadata'];
  return isPlainObject(meta) ? meta : undefined;
}
