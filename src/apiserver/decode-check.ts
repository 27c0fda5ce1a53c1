// The first check of every write, standing in for the Kubernetes API server's decoding of a body
// into its Go type: a value of the wrong JSON type is refused before any validation runs. A request
// body that does not decode is 400 BadRequest, `ConfigMap in version "v1" cannot be handled as a
// ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string`;
// a patch whose result does not decode is 422 Invalid on the field `patch`, showing the patched
// object, as kube's patch handler answers.

import { AppError } from '../errors.js';
import { invalidCause } from '../apimachinery/field-causes.js';
import { assertJsonDepth } from '../apimachinery/json-depth.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { invalidError } from '../apimachinery/validation.js';
import type { ResourceHooks } from './resource-hooks.js';
import type { ResourceInfo } from './resource-info.js';

/** DecodeSource says where the checked object came from: the request body, or a patch applied to the stored object. */
export type DecodeSource = 'body' | 'patch';

/** assertDecodes refuses an object nested too deeply (400) or of the wrong shape for its kind (400, or 422 for a patch). */
export function assertDecodes(hooks: ResourceHooks, info: ResourceInfo, value: unknown, source: DecodeSource): void {
  // First, so that neither the check nor an error message walks a pathologically deep value.
  assertJsonDepth(value, 'the object');
  if (!isPlainObject(value)) return; // readBody refuses it with its own message
  const complaint = hooks.decode?.(info, value);
  if (complaint === undefined) return;
  if (source === 'body') throw new AppError('BadRequest', `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${complaint}`);
  throw invalidError('', '', [invalidCause('patch', JSON.stringify(value), complaint)]);
}
