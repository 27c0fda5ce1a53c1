// Shared pieces of the src/kube integration tests: resources, objects, and catching AppErrors
// from promises.

import pino from 'pino';
import { AppError } from '../../../src/errors.js';
import type { GroupVersionResource } from '../../../src/apimachinery/gvr.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import type { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { crd } from '../../helpers/kube-http.js';
export { freePort } from '../../helpers/free-port.js';

/** CONFIGMAPS is the core configmaps resource. */
export const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };

/** CRDS is the CustomResourceDefinition resource. */
export const CRDS: GroupVersionResource = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

/** WIDGETS is a cluster-scoped custom resource with a status subresource (see defineWidgets). */
export const WIDGETS: GroupVersionResource = { group: 'example.com', version: 'v1', resource: 'widgets' };

/** SILENT is a logger for reflectors under test. */
export const SILENT = pino({ level: 'silent' });

/** configMap builds a configmap in namespace default. */
export function configMap(name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) }, data };
}

/** defineWidgets creates the widgets CRD in a logical cluster. */
export async function defineWidgets(client: DynamicClient, cluster: string): Promise<void> {
  const definition = crd({ group: WIDGETS.group, plural: WIDGETS.resource, kind: 'Widget', versions: [WIDGETS.version] });
  await client.create(cluster, CRDS, undefined, definition as unknown as KubeObject);
}

/** rejection awaits a promise that must reject with an AppError, and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the promise to reject with an AppError');
}

/** storeKeys names every object of a list as `<cluster>|<namespace>/<name>@<resourceVersion>`, sorted. */
export function storeKeys(objects: Iterable<KubeObject>): string[] {
  return [...objects]
    .map((o) => `${o.metadata.annotations?.['kcp.io/cluster'] ?? ''}|${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}@${o.metadata.resourceVersion ?? ''}`)
    .sort();
}
