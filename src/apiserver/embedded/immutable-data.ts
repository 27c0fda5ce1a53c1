// ConfigMaps and Secrets marked `immutable: true` keep their data and the mark for good, as
// Kubernetes' ValidateConfigMapUpdate and ValidateSecretUpdate require.

import type { StatusCause } from '../../errors.js';
import { forbiddenCause } from '../../apimachinery/field-causes.js';
import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** immutableDataCauses refuses an update that unsets `immutable` or changes one of dataFields of an immutable stored object. */
export function immutableDataCauses(obj: Readonly<Record<string, unknown>>, old: KubeObject | undefined, dataFields: readonly string[]): StatusCause[] {
  if (old?.['immutable'] !== true) return [];
  const causes: StatusCause[] = [];
  if (obj['immutable'] !== true) causes.push(forbiddenCause('immutable', IMMUTABLE));
  for (const field of dataFields) {
    if (!jsonEqual(obj[field] ?? null, old[field] ?? null)) causes.push(forbiddenCause(field, IMMUTABLE));
  }
  return causes;
}
