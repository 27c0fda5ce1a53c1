// Secrets: decoded as v1.Secret (data values must be base64, as kube's decoder requires of []byte),
// `stringData` folded into `data` as Kubernetes does, then validated as its ValidateSecret does:
// file-name-safe keys, at most 1 MiB of data, the keys each well-known type needs, and on update a
// type that does not change and immutable data that stays.

import type { StatusCause } from '../../errors.js';
import { invalidCause, requiredCause, tooLongCause } from '../../apimachinery/field-causes.js';
import { goDecodeError } from '../../apimachinery/go-json-decode.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { invalidError } from '../../apimachinery/validation.js';
import type { MutableObject, ResourceHooks } from '../resource-hooks.js';
import { SECRET_TYPE } from './builtin-go-types.js';
import { MAX_CONFIG_DATA_BYTES, keyCauses } from './configmap-hooks.js';
import { immutableDataCauses } from './immutable-data.js';

/** REQUIRED_KEYS are the data keys a Secret of a well-known type must carry. */
const REQUIRED_KEYS: Readonly<Record<string, readonly string[]>> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};

/** secretHooks folds stringData into data and validates Secrets on every write. */
export function secretHooks(): ResourceHooks {
  return {
    decode: (_info, obj) => goDecodeError(obj, SECRET_TYPE),
    admit(ctx, obj, old) {
      foldStringData(obj);
      const causes = validateSecret(obj, old);
      if (causes.length > 0) throw invalidError(ctx.info.kind, String(obj.metadata['name'] ?? ''), causes, ctx.info.group);
    },
  };
}

/** foldStringData moves stringData into base64 data and defaults the type to Opaque. */
function foldStringData(obj: MutableObject): void {
  const data: Record<string, unknown> = isPlainObject(obj['data']) ? { ...obj['data'] } : {};
  const stringData = isPlainObject(obj['stringData']) ? obj['stringData'] : {};
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
  delete obj['stringData'];
  if (Object.keys(data).length > 0) obj['data'] = data;
  if (obj['type'] === undefined || obj['type'] === null || obj['type'] === '') obj['type'] = 'Opaque';
}

/** validateSecret lists what is wrong with a decoded Secret whose stringData is folded; old is the stored version on update. */
export function validateSecret(obj: Readonly<Record<string, unknown>> & { metadata: Record<string, unknown> }, old: KubeObject | undefined): StatusCause[] {
  const data = isPlainObject(obj['data']) ? obj['data'] : {};
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    causes.push(...keyCauses('data', key));
    size += typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
  }
  if (size > MAX_CONFIG_DATA_BYTES) causes.push(tooLongCause('data', MAX_CONFIG_DATA_BYTES));
  causes.push(...typeCauses(String(obj['type'] ?? ''), data, obj.metadata));
  if (old !== undefined && old['type'] !== undefined && obj['type'] !== old['type']) causes.push(invalidCause('type', obj['type'], 'field is immutable'));
  return [...causes, ...immutableDataCauses(obj, old, ['data'])];
}

// The keys (or annotation) each well-known Secret type needs, as Kubernetes checks them.
function typeCauses(type: string, data: Readonly<Record<string, unknown>>, meta: Record<string, unknown>): StatusCause[] {
  const has = (key: string): boolean => Object.hasOwn(data, key);
  switch (type) {
    case 'kubernetes.io/service-account-token': {
      const annotations = isPlainObject(meta['annotations']) ? meta['annotations'] : {};
      const key = 'kubernetes.io/service-account.name';
      return typeof annotations[key] === 'string' && annotations[key] !== '' ? [] : [requiredCause(`metadata.annotations[${key}]`)];
    }
    case 'kubernetes.io/basic-auth':
      return has('username') || has('password') ? [] : [requiredCause('data[username]'), requiredCause('data[password]')];
    case 'kubernetes.io/ssh-auth':
      return typeof data['ssh-privatekey'] === 'string' && data['ssh-privatekey'] !== '' ? [] : [requiredCause('data[ssh-privatekey]')];
    default:
      if (!Object.hasOwn(REQUIRED_KEYS, type)) return [];
      return (REQUIRED_KEYS[type] ?? []).filter((key) => !has(key)).map((key) => requiredCause(`data[${key}]`));
  }
}
