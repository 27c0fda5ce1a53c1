// What the API server knows about one served resource: its names, scope and subresources.
// Discovery documents, path resolution and write rules are all derived from this record.

import type { NameRule } from '../apimachinery/validation.js';
import type { PrinterColumn } from './printer-columns.js';

/** ResourceInfo describes one resource at one version, as discovery reports it. */
export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  /** resource is the plural, lowercase name used in paths. */
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly statusSubresource: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly nameRule: NameRule;
  /** storageVersion: this version is the one reported as preferred in discovery. */
  readonly storageVersion: boolean;
  /** generation false: objects have no metadata.generation (core kinds such as ConfigMap); absent = counted. */
  readonly generation?: boolean;
  /** verbs, when set, are the verbs discovery lists (the create-only access reviews); else derived from readOnly. */
  readonly verbs?: readonly string[];
  /** readOnly resources refuse every write with 405 MethodNotAllowed. */
  readonly readOnly?: boolean;
  /** fieldSelectors are the fields a field selector may name besides metadata.name and metadata.namespace. */
  readonly fieldSelectors?: readonly string[];
  /** printerColumns are a CRD version's additionalPrinterColumns: `kubectl get` shows them after Name. */
  readonly printerColumns?: readonly PrinterColumn[];
  /** openApiSchema is a CRD version's schema.openAPIV3Schema as written (OpenAPI v3 documents show it). */
  readonly openApiSchema?: unknown;
}

/** VERBS_READ_WRITE are the verbs discovery lists for a writable resource. */
export const VERBS_READ_WRITE: readonly string[] = Object.freeze([
  'create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch',
]);

/** VERBS_READ_ONLY are the verbs discovery lists for a read-only resource. */
export const VERBS_READ_ONLY: readonly string[] = Object.freeze(['get', 'list', 'watch']);

/** ResourceCatalog answers which resources one logical cluster serves. */
export interface ResourceCatalog {
  /** resources lists what a cluster serves; cluster undefined = the union over every cluster (for `*`). */
  resources(cluster: string | undefined): readonly ResourceInfo[];
  /** find resolves a path's group, version and resource (or a short name is NOT accepted here). */
  find(cluster: string | undefined, group: string, version: string, resource: string): ResourceInfo | undefined;
}
