// CustomResourceDefinitions: decoded as apiextensions/v1.CustomResourceDefinition; a valid CRD
// registers its resource in its logical cluster and is reported Established; deleting it removes
// the resource and every object of it.

import { goDecodeError } from '../../apimachinery/go-json-decode.js';
import { invalidError } from '../../apimachinery/validation.js';
import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { ResourceHooks } from '../resource-hooks.js';
import type { ClusterCatalog } from '../cluster-catalog.js';
import { CRD_TYPE } from './crd-go-type.js';
import { crdStatus, readCrd, resourcesOfCrd, validateCrd } from './crd-resources.js';

/** crdHooks keeps the catalog in step with the CRDs stored in each cluster. */
export function crdHooks(catalog: ClusterCatalog, now: () => Date): ResourceHooks {
  return {
    decode: (_info, obj) => goDecodeError(obj, CRD_TYPE),
    admit(ctx, obj) {
      const name = String(obj.metadata['name'] ?? '');
      const causes = validateCrd(name, readCrd(obj as KubeObject));
      if (causes.length > 0) throw invalidError(ctx.info.kind, name, causes, ctx.info.group);
    },
    async afterWrite(ctx, obj) {
      const crd = readCrd(obj);
      catalog.register(ctx.cluster, obj.metadata.name ?? '', resourcesOfCrd(crd));
      const status = crdStatus(crd, timestamp(now()));
      if (sameConditions(obj['status'], status)) return;
      const key = { cluster: ctx.cluster, group: ctx.info.group, resource: ctx.info.resource, namespace: '', name: obj.metadata.name ?? '' };
      await ctx.store.update(key, { ...obj, status }, { statusSubresource: true, subresource: 'status' });
    },
    async afterDelete(ctx, obj) {
      const crd = readCrd(obj);
      catalog.unregister(ctx.cluster, obj.metadata.name ?? '');
      await ctx.store.deleteCollection(
        { cluster: ctx.cluster, group: crd.group, resource: crd.names.plural },
        {},
        { ignoreFinalizers: true },
      );
    },
  };
}

/** sameConditions ignores transition times, so re-applying a CRD does not rewrite its status. */
function sameConditions(current: unknown, next: Record<string, unknown>): boolean {
  const strip = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? {}, (k, v: unknown) => (k === 'lastTransitionTime' ? undefined : v)));
  return jsonEqual(strip(current), strip(next));
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
