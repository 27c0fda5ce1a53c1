// Labels of a CachedObject: the original's labels plus six that say what it wraps
// (README.md here). A value Kubernetes would refuse as a label value is stored as a short hash,
// with the full value in the annotation of the same key, so selectors still work on the usual
// short names and nothing is lost for the long ones.

import { groupName, schemaOf } from '../apimachinery/gvr.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject, StringMap } from '../apimachinery/object-meta.js';
import { isLabelValue } from '../apimachinery/validation.js';
import { sha256Base36 } from './sha256-base36.js';

/** SCHEMA_LABEL holds the original's schema `<version>.<resource>.<group>`. */
export const SCHEMA_LABEL = 'cache.kcp.io/object-schema';
/** GROUP_LABEL holds the original's API group (`core` for the core group). */
export const GROUP_LABEL = 'cache.kcp.io/object-group';
/** VERSION_LABEL holds the original's API version. */
export const VERSION_LABEL = 'cache.kcp.io/object-version';
/** RESOURCE_LABEL holds the original's plural resource name. */
export const RESOURCE_LABEL = 'cache.kcp.io/object-resource';
/** ORIGINAL_NAME_LABEL holds the original's name. */
export const ORIGINAL_NAME_LABEL = 'cache.kcp.io/object-original-name';
/** ORIGINAL_NAMESPACE_LABEL holds the original's namespace ('' for cluster-scoped). */
export const ORIGINAL_NAMESPACE_LABEL = 'cache.kcp.io/object-original-namespace';

/** CACHED_OBJECT_LABEL_KEYS lists the six labels cachegate sets; a hashed one has an annotation of the same key. */
export const CACHED_OBJECT_LABEL_KEYS: readonly string[] = Object.freeze([
  SCHEMA_LABEL,
  GROUP_LABEL,
  VERSION_LABEL,
  RESOURCE_LABEL,
  ORIGINAL_NAME_LABEL,
  ORIGINAL_NAMESPACE_LABEL,
]);

const HASHED_VALUE_PREFIX = 'h-';
const HASHED_VALUE_LENGTH = 20;

/** CachedObjectMeta is the labels and annotations derived from an original. */
export interface CachedObjectMeta {
  readonly labels: StringMap;
  readonly annotations: StringMap;
}

/** cachedObjectLabels gives a CachedObject's labels and the annotations holding full values of hashed labels. */
export function cachedObjectLabels(original: KubeObject, gvr: GroupVersionResource, schema: string = schemaOf(gvr)): CachedObjectMeta {
  const labels: Record<string, string> = { ...original.metadata.labels };
  const annotations: Record<string, string> = {};
  // One call per label rather than a loop over a table of pairs: this runs once per copy
  // written, and the table cost seven arrays per copy.
  setLabel(labels, annotations, SCHEMA_LABEL, schema);
  setLabel(labels, annotations, GROUP_LABEL, groupName(gvr.group));
  setLabel(labels, annotations, VERSION_LABEL, gvr.version);
  setLabel(labels, annotations, RESOURCE_LABEL, gvr.resource);
  setLabel(labels, annotations, ORIGINAL_NAME_LABEL, original.metadata.name ?? '');
  setLabel(labels, annotations, ORIGINAL_NAMESPACE_LABEL, original.metadata.namespace ?? '');
  return { labels, annotations };
}

/** setLabel sets a label, or its hashed stand-in with the full value in the annotation of the same key. */
function setLabel(labels: Record<string, string>, annotations: Record<string, string>, key: string, value: string): void {
  if (isLabelValue(value)) {
    labels[key] = value;
  } else {
    labels[key] = hashedLabelValue(value);
    annotations[key] = value;
  }
}

/** hashedLabelValue gives the short stand-in `h-<20 base36 chars>` for a value that is not a valid label value. */
export function hashedLabelValue(value: string): string {
  return HASHED_VALUE_PREFIX + sha256Base36(value).slice(0, HASHED_VALUE_LENGTH);
}
