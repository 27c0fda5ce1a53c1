// Reading a CustomResourceDefinition: which resources it adds, whether it is well formed, and
// the status the server reports for it. CRDs here are schemaless: the schema is not enforced,
// only kept per served version for the OpenAPI v3 documents (`kubectl explain`).

import type { StatusCause } from '../../errors.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation.js';
import { readPrinterColumns } from '../printer-columns.js';
import type { PrinterColumn } from '../printer-columns.js';
import type { ResourceInfo } from '../resource-info.js';

interface CrdNames {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
}

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  status: boolean;
  printerColumns: PrinterColumn[];
  /** openApiSchema is schema.openAPIV3Schema when it is an object; absent otherwise. */
  openApiSchema?: Record<string, unknown>;
}

/** CrdView is the part of a CRD the server needs, read defensively from untrusted JSON. */
export interface CrdView {
  group: string;
  scope: string;
  names: CrdNames;
  versions: CrdVersion[];
}

/** readCrd extracts a CrdView from a CRD object, filling defaults; it never throws. */
export function readCrd(crd: KubeObject): CrdView {
  const spec = isPlainObject(crd['spec']) ? crd['spec'] : {};
  const names = isPlainObject(spec['names']) ? spec['names'] : {};
  const plural = str(names['plural']);
  const kind = str(names['kind']);
  return {
    group: str(spec['group']),
    scope: str(spec['scope']),
    names: {
      plural,
      singular: str(names['singular']) || kind.toLowerCase(),
      kind,
      listKind: str(names['listKind']) || `${kind}List`,
      shortNames: strings(names['shortNames']),
      categories: strings(names['categories']),
    },
    versions: (Array.isArray(spec['versions']) ? spec['versions'] : []).filter(isPlainObject).map((v) => ({
      name: str(v['name']),
      served: v['served'] !== false,
      storage: v['storage'] === true,
      status: isPlainObject(v['subresources']) && isPlainObject(v['subresources']['status']),
      printerColumns: readPrinterColumns(v['additionalPrinterColumns']),
      ...openApiSchemaOf(v['schema']),
    })),
  };
}

/** validateCrd lists what is wrong with a CRD, as field causes for a 422 Invalid. */
export function validateCrd(name: string, crd: CrdView): StatusCause[] {
  const causes: StatusCause[] = [];
  const bad = (field: string, message: string): void => void causes.push({ reason: 'FieldValueInvalid', field, message });
  if (isDNS1123Subdomain(crd.group).length > 0 || !crd.group.includes('.')) bad('spec.group', `Invalid value: "${crd.group}": should be a domain with at least one dot`);
  if (isDNS1123Label(crd.names.plural).length > 0) bad('spec.names.plural', `Invalid value: "${crd.names.plural}": must be a lowercase DNS-1123 label`);
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(crd.names.kind)) bad('spec.names.kind', `Invalid value: "${crd.names.kind}": must be a CamelCase identifier`);
  if (crd.scope !== 'Namespaced' && crd.scope !== 'Cluster') bad('spec.scope', `Unsupported value: "${crd.scope}": supported values: "Cluster", "Namespaced"`);
  if (name !== `${crd.names.plural}.${crd.group}`) bad('metadata.name', `Invalid value: "${name}": must be spec.names.plural+"."+spec.group`);
  if (crd.versions.length === 0) bad('spec.versions', 'Required value: must have exactly one version marked as storage version');
  else if (crd.versions.filter((v) => v.storage).length !== 1) bad('spec.versions', 'Invalid value: must have exactly one version marked as storage version');
  for (const [i, v] of crd.versions.entries()) {
    if (isDNS1123Label(v.name).length > 0) bad(`spec.versions[${i}].name`, `Invalid value: "${v.name}": must be a DNS-1123 label`);
  }
  return causes;
}

/** resourcesOfCrd gives one ResourceInfo per served version of a valid CRD. */
export function resourcesOfCrd(crd: CrdView): ResourceInfo[] {
  return crd.versions.filter((v) => v.served).map((v) => Object.freeze({
    group: crd.group,
    version: v.name,
    resource: crd.names.plural,
    singular: crd.names.singular,
    kind: crd.names.kind,
    listKind: crd.names.listKind,
    namespaced: crd.scope === 'Namespaced',
    statusSubresource: v.status,
    shortNames: crd.names.shortNames,
    categories: crd.names.categories,
    nameRule: 'subdomain' as const,
    storageVersion: v.storage,
    ...(v.printerColumns.length > 0 ? { printerColumns: v.printerColumns } : {}),
    ...(v.openApiSchema ? { openApiSchema: v.openApiSchema } : {}),
  }));
}

/** crdStatus is the status the server reports for an accepted CRD. */
export function crdStatus(crd: CrdView, now: string): Record<string, unknown> {
  const condition = (type: string, reason: string, message: string): Record<string, string> =>
    ({ type, status: 'True', lastTransitionTime: now, reason, message });
  return {
    conditions: [
      condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
    acceptedNames: {
      plural: crd.names.plural, singular: crd.names.singular, kind: crd.names.kind, listKind: crd.names.listKind,
      ...(crd.names.shortNames.length ? { shortNames: crd.names.shortNames } : {}),
      ...(crd.names.categories.length ? { categories: crd.names.categories } : {}),
    },
    storedVersions: crd.versions.filter((v) => v.storage).map((v) => v.name),
  };
}

function openApiSchemaOf(schema: unknown): { openApiSchema?: Record<string, unknown> } {
  if (!isPlainObject(schema) || !isPlainObject(schema['openAPIV3Schema'])) return {};
  return { openApiSchema: schema['openAPIV3Schema'] };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
