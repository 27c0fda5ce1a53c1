// ClusterCachedResources: served from a CRD in real clusters, so they are validated against its
// schema (422 Invalid, as kube-apiserver's custom resource handler answers) rather than decoded
// into a Go type; their metadata still goes through the common ObjectMeta decoder check.

import { validateSchema } from '../../apimachinery/structural-schema.js';
import { invalidError } from '../../apimachinery/validation.js';
import type { ResourceHooks } from '../resource-hooks.js';
import { CCR_SCHEMA } from './ccr-schema.js';

/** ccrHooks validates ClusterCachedResources on every write, status writes included. */
export function ccrHooks(): ResourceHooks {
  return {
    admit(ctx, obj) {
      const causes = validateSchema(obj, CCR_SCHEMA);
      if (causes.length > 0) throw invalidError(ctx.info.kind, String(obj.metadata['name'] ?? ''), causes, ctx.info.group);
    },
  };
}
