// The OpenAPI v3 document of one served group-version, as kube-apiserver serves it at
// /openapi/v3/api/v1 and /openapi/v3/apis/{group}/{version}: components.schemas holds every kind
// served there (and its List kind), each tagged with x-kubernetes-group-version-kind, which is how
// `kubectl explain` matches a resource's schema; paths describe each resource's list operation only
// (kubectl explain reads a resource's kind from it). No write operation is described, so kubectl
// computes patches as it did with the empty OpenAPI v2 document.

import type { ResourceInfo } from '../resource-info.js';
import type { KindSchema } from './core-schemas.js';
import { CORE_V1_KINDS } from './core-schemas.js';
import { customResourceSchema } from './custom-resource-schema.js';
import { EXTENSION_KINDS } from './extension-schemas.js';
import type { OpenApiSchema } from './meta-schemas.js';
import { API_VERSION, KIND, LIST_METADATA, META_COMPONENTS } from './meta-schemas.js';
import { compareStrings } from '../../apimachinery/compare-strings.js';

/** GVK_EXTENSION is the vendor extension naming the kind a schema describes. */
export const GVK_EXTENSION = 'x-kubernetes-group-version-kind';

/** groupVersionKey is a group-version's key in the /openapi/v3 index: `api/v1` or `apis/{group}/{version}`. */
export function groupVersionKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** servedGroupVersions lists the group-versions resources serve, once each, in the order first seen. */
export function servedGroupVersions(resources: readonly ResourceInfo[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of resources) {
    const key = groupVersionKey(r.group, r.version);
    if (!seen.has(key)) seen.set(key, { group: r.group, version: r.version });
  }
  return [...seen.values()];
}

/**
 * groupVersionDocument builds the document of group/version from what is served, or undefined
 * when nothing serves that group-version; serverVersion fills the document's info.version.
 */
export function groupVersionDocument(
  resources: readonly ResourceInfo[], group: string, version: string, serverVersion: string,
): Record<string, unknown> | undefined {
  const served = resources.filter((r) => r.group === group && r.version === version);
  if (served.length === 0) return undefined;
  const schemas: Record<string, OpenApiSchema> = { ...META_COMPONENTS };
  const paths: Record<string, unknown> = {};
  const listNames = new Map<string, string>();
  for (const info of served) {
    let listName = listNames.get(info.kind);
    if (listName === undefined) {
      const kind = kindSchemaOf(info);
      listName = `${kind.name}List`;
      listNames.set(info.kind, listName);
      Object.assign(schemas, kind.components ?? {});
      schemas[kind.name] = { ...kind.schema, [GVK_EXTENSION]: [gvk(info, info.kind)] };
      schemas[listName] = listSchema(info, kind.name);
    }
    Object.assign(paths, listPaths(info, listName));
  }
  return {
    openapi: '3.0.0',
    info: { title: 'cachegate', version: serverVersion },
    paths: sortedByName(paths),
    components: { schemas: sortedByName(schemas) },
  };
}

/**
 * kindSchemaOf is the schema of a resource's kind: a CRD version's openAPIV3Schema when it has
 * one, else the hand-made built-in schema, else an object that keeps every field.
 */
export function kindSchemaOf(info: ResourceInfo): KindSchema {
  if (info.openApiSchema !== undefined) return { name: friendlyName(info), schema: customResourceSchema(info.openApiSchema) };
  const key = info.group === '' ? info.kind : `${info.group}/${info.version}/${info.kind}`;
  const table = info.group === '' ? CORE_V1_KINDS : EXTENSION_KINDS;
  const builtin = Object.hasOwn(table, key) ? table[key] : undefined;
  return builtin ?? { name: friendlyName(info), schema: customResourceSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) };
}

/** friendlyName is kube's component name for a custom kind: the group reversed, the version, the kind. */
export function friendlyName(info: Pick<ResourceInfo, 'group' | 'version' | 'kind'>): string {
  const group = info.group === '' ? [] : info.group.split('.').reverse();
  return [...group, info.version, info.kind].join('.');
}

/** listPaths are a resource's list paths (all namespaces and one namespace when namespaced), each with its GET. */
function listPaths(info: ResourceInfo, listName: string): Record<string, unknown> {
  const base = info.group === '' ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  const get = (scope: string): Record<string, unknown> => ({
    get: {
      description: `list or watch objects of kind ${info.kind}${scope}`,
      operationId: `list${info.kind}${scope === '' ? '' : 'ForAllNamespaces'}`,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${listName}` } } } } },
      'x-kubernetes-action': 'list',
      [GVK_EXTENSION]: gvk(info, info.kind),
    },
  });
  if (!info.namespaced) return { [`${base}/${info.resource}`]: get('') };
  return {
    [`${base}/${info.resource}`]: get(' in every namespace'),
    [`${base}/namespaces/{namespace}/${info.resource}`]: get(''),
  };
}

function listSchema(info: ResourceInfo, itemName: string): OpenApiSchema {
  return {
    type: 'object',
    description: `${info.listKind} is a list of ${info.kind}.`,
    required: ['items'],
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      items: {
        type: 'array',
        description: `List of ${info.resource}.`,
        items: { allOf: [{ $ref: `#/components/schemas/${itemName}` }], default: {} },
      },
      metadata: LIST_METADATA,
    },
    [GVK_EXTENSION]: [gvk(info, info.listKind)],
  };
}

function gvk(info: ResourceInfo, kind: string): Record<string, string> {
  return { group: info.group, version: info.version, kind };
}

function sortedByName<T>(schemas: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => compareStrings(a, b)));
}
