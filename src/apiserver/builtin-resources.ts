// The resources every logical cluster of the embedded source serves without a CRD. The core kinds
// have no metadata.generation, as in Kubernetes, whose strategies for them never set one.

import type { ResourceInfo } from './resource-info.js';

function builtin(info: Omit<ResourceInfo, 'storageVersion' | 'categories'> & { categories?: readonly string[] }): ResourceInfo {
  return Object.freeze({ storageVersion: true, categories: [], ...info });
}

/** NAMESPACES is core/v1 namespaces. */
export const NAMESPACES = builtin({
  group: '', version: 'v1', resource: 'namespaces', singular: 'namespace', kind: 'Namespace',
  listKind: 'NamespaceList', generation: false, namespaced: false, statusSubresource: true, shortNames: ['ns'], nameRule: 'label',
});

/** CONFIGMAPS is core/v1 configmaps. */
export const CONFIGMAPS = builtin({
  group: '', version: 'v1', resource: 'configmaps', singular: 'configmap', kind: 'ConfigMap',
  listKind: 'ConfigMapList', generation: false, namespaced: true, statusSubresource: false, shortNames: ['cm'], nameRule: 'subdomain',
});

/** SECRETS is core/v1 secrets. */
export const SECRETS = builtin({
  group: '', version: 'v1', resource: 'secrets', singular: 'secret', kind: 'Secret',
  listKind: 'SecretList', generation: false, namespaced: true, statusSubresource: false, shortNames: [], nameRule: 'subdomain',
});

/** EVENTS is core/v1 events, with the field selectors kube-apiserver gives them (what `kubectl describe` asks). */
export const EVENTS = builtin({
  group: '', version: 'v1', resource: 'events', singular: 'event', kind: 'Event',
  listKind: 'EventList', generation: false, namespaced: true, statusSubresource: false, shortNames: ['ev'], nameRule: 'subdomain',
  fieldSelectors: [
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
    'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type',
  ],
});

/** CUSTOM_RESOURCE_DEFINITIONS is apiextensions.k8s.io/v1 customresourcedefinitions. */
export const CUSTOM_RESOURCE_DEFINITIONS = builtin({
  group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition', kind: 'CustomResourceDefinition', listKind: 'CustomResourceDefinitionList',
  namespaced: false, statusSubresource: true, shortNames: ['crd', 'crds'], nameRule: 'subdomain',
  categories: ['api-extensions'],
});

/** CLUSTER_CACHED_RESOURCES is cache.kcp.io/v1alpha1 clustercachedresources. */
export const CLUSTER_CACHED_RESOURCES = builtin({
  group: 'cache.kcp.io', version: 'v1alpha1', resource: 'clustercachedresources',
  singular: 'clustercachedresource', kind: 'ClusterCachedResource', listKind: 'ClusterCachedResourceList',
  namespaced: false, statusSubresource: true, shortNames: [], nameRule: 'subdomain', categories: ['kcp'],
  // The same columns as the CRD in deploy/crds: what is replicated, how far, and how it is going.
  printerColumns: [
    { name: 'Resource', type: 'string', format: '', description: 'The replicated resource.', priority: 0, jsonPath: '.spec.resource' },
    { name: 'Phase', type: 'string', format: '', description: 'Where the replication is.', priority: 0, jsonPath: '.status.phase' },
    { name: 'Local', type: 'integer', format: '', description: 'Objects selected in the source.', priority: 0, jsonPath: '.status.resourceCounts.local' },
    { name: 'Cache', type: 'integer', format: '', description: 'Copies in the cache.', priority: 0, jsonPath: '.status.resourceCounts.cache' },
    { name: 'Age', type: 'date', format: '', description: 'Time since the object was created.', priority: 0, jsonPath: '.metadata.creationTimestamp' },
  ],
});

/** BUILTIN_RESOURCES lists every built-in resource of the embedded source. */
export const BUILTIN_RESOURCES: readonly ResourceInfo[] = Object.freeze([
  NAMESPACES, CONFIGMAPS, SECRETS, EVENTS, CUSTOM_RESOURCE_DEFINITIONS, CLUSTER_CACHED_RESOURCES,
]);
