// ConfigMaps: decoded as v1.ConfigMap, then validated as Kubernetes' ValidateConfigMap does: keys
// that can be file names, no key in both data and binaryData, at most 1 MiB of values, and an
// immutable ConfigMap keeps its data.

import type { StatusCause } from '../../errors.js';
import { invalidCause, tooLongCause } from '../../apimachinery/field-causes.js';
import { goDecodeError } from '../../apimachinery/go-json-decode.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { invalidError, isConfigMapKey } from '../../apimachinery/validation.js';
import type { ResourceHooks } from '../resource-hooks.js';
import { CONFIG_MAP_TYPE } from './builtin-go-types.js';
import { immutableDataCauses } from './immutable-data.js';

/** MAX_CONFIG_DATA_BYTES bounds the values of a ConfigMap or Secret together (Kubernetes' MaxSecretSize, 1 MiB). */
export const MAX_CONFIG_DATA_BYTES = 1024 * 1024;

/** configMapHooks checks ConfigMaps on every write. */
export function configMapHooks(): ResourceHooks {
  return {
    decode: (_info, obj) => goDecodeError(obj, CONFIG_MAP_TYPE),
    admit(ctx, obj, old) {
      const causes = validateConfigMap(obj, old);
      if (causes.length > 0) throw invalidError(ctx.info.kind, String(obj.metadata['name'] ?? ''), causes, ctx.info.group);
    },
  };
}

/** validateConfigMap lists what is wrong with a decoded ConfigMap; old is the stored version on update. */
export function validateConfigMap(obj: Readonly<Record<string, unknown>>, old: KubeObject | undefined): StatusCause[] {
  const data = isPlainObject(obj['data']) ? obj['data'] : {};
  const binaryData = isPlainObject(obj['binaryData']) ? obj['binaryData'] : {};
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    causes.push(...keyCauses('data', key));
    if (Object.hasOwn(binaryData, key)) causes.push(invalidCause(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    size += typeof value === 'string' ? Buffer.byteLength(value) : 0;
  }
  for (const [key, value] of Object.entries(binaryData)) {
    causes.push(...keyCauses('binaryData', key));
    size += typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
  }
  // The empty path means the whole object; Kubernetes prints it as `[]`.
  if (size > MAX_CONFIG_DATA_BYTES) causes.push(tooLongCause('[]', MAX_CONFIG_DATA_BYTES));
  return [...causes, ...immutableDataCauses(obj, old, ['data', 'binaryData'])];
}

/** keyCauses checks one key of a data map, reported on `<map>[<key>]`. */
export function keyCauses(map: string, key: string): StatusCause[] {
  return isConfigMapKey(key).map((message) => invalidCause(`${map}[${key}]`, key, message));
}
