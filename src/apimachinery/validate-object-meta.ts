// Validation of the metadata of an incoming object, following Kubernetes' ValidateObjectMeta:
// the same checks and limits, the same cause reasons and the same message wording. Causes are
// reported per field (metadata.labels, not metadata.labels.<key>), as Kubernetes does. Labels
// have no total size limit in Kubernetes, only per key and value; annotations have one.
// Wrong JSON types are normally refused before this by the decoder check (400, go-json-decode.ts);
// the type causes below keep this function safe to call on any value.

import type { StatusCause } from '../errors.js';
import { forbiddenCause, invalidCause, requiredCause, tooLongCause } from './field-causes.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
  utf8Length,
} from './name-validation.js';
import { isPlainObject } from './object-meta.js';
import { validateFinalizers, validateManagedFields, validateNoNewFinalizers, validateOwnerReferences } from './validate-meta-lists.js';

/** NameRule selects how metadata.name of a resource is validated. */
export type NameRule = 'subdomain' | 'label' | 'path-segment';

/** ObjectMetaRules describes the resource whose metadata is validated. */
export interface ObjectMetaRules {
  /** namespaced resources require metadata.namespace; cluster-scoped ones forbid it. */
  readonly namespaced: boolean;
  readonly nameRule: NameRule;
}

/** TOTAL_ANNOTATION_SIZE_LIMIT is the Kubernetes cap on all annotation keys plus values, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/**
 * validateObjectMeta checks an object's metadata and returns the causes of failure (empty = valid).
 * A generateName without a name is accepted: the name is generated later. Namespaced objects must
 * carry metadata.namespace, so fill it from the request path before calling this.
 */
export function validateObjectMeta(meta: unknown, rules: ObjectMetaRules): StatusCause[] {
  if (meta === undefined || meta === null) return [requiredCause('metadata')];
  if (!isPlainObject(meta)) return [invalidCause('metadata', meta, 'must be an object')];
  return [
    ...validateNames(meta, rules.nameRule),
    ...validateNamespace(meta.namespace, rules.namespaced),
    ...validateLabels(meta.labels),
    ...validateAnnotations(meta.annotations),
    ...validateLists(meta),
  ];
}

/**
 * validateObjectMetaUpdate adds the rules of an update to those of validateObjectMeta: an object
 * being deleted may lose finalizers but gain none.
 */
export function validateObjectMetaUpdate(meta: Record<string, unknown>, old: { readonly deletionTimestamp?: string; readonly finalizers?: readonly string[] }): StatusCause[] {
  if (old.deletionTimestamp === undefined) return [];
  return validateNoNewFinalizers(strings(meta.finalizers), old.finalizers ?? []);
}

function validateNames(meta: Record<string, unknown>, rule: NameRule): StatusCause[] {
  const causes = [...notAString('metadata.name', meta.name), ...notAString('metadata.generateName', meta.generateName)];
  if (causes.length > 0) return causes;
  const name = typeof meta.name === 'string' ? meta.name : '';
  const generateName = typeof meta.generateName === 'string' ? meta.generateName : '';
  for (const message of nameErrors(generateName, rule, true)) {
    causes.push(invalidCause('metadata.generateName', generateName, message));
  }
  // An invalid prefix makes any generated name invalid too; report the problem only once.
  if (causes.length > 0 || (name === '' && generateName !== '')) return causes;
  if (name === '') return [requiredCause('metadata.name', 'name or generateName is required')];
  return nameErrors(name, rule, false).map((message) => invalidCause('metadata.name', name, message));
}

function nameErrors(name: string, rule: NameRule, prefix: boolean): string[] {
  if (prefix && name === '') return [];
  if (rule === 'path-segment') return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
  // A prefix may end in '-' because random characters follow it; mask it as Kubernetes does.
  const checked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  return rule === 'label' ? isDNS1123Label(checked) : isDNS1123Subdomain(checked);
}

function validateNamespace(namespace: unknown, namespaced: boolean): StatusCause[] {
  const field = 'metadata.namespace';
  if (namespace !== undefined && namespace !== null && typeof namespace !== 'string') {
    return notAString(field, namespace);
  }
  const value = namespace ?? '';
  if (!namespaced) return value === '' ? [] : [forbiddenCause(field, 'not allowed on this type')];
  if (value === '') return [requiredCause(field)];
  return isDNS1123Label(value).map((message) => invalidCause(field, value, message));
}

function validateLabels(labels: unknown): StatusCause[] {
  const field = 'metadata.labels';
  if (labels === undefined || labels === null) return [];
  if (!isPlainObject(labels)) return [invalidCause(field, labels, 'must be an object')];
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(labels)) {
    for (const message of isQualifiedName(key)) causes.push(invalidCause(field, key, message));
    if (typeof value !== 'string') causes.push(invalidCause(field, value, 'must be a string'));
    else for (const message of isValidLabelValue(value)) causes.push(invalidCause(field, value, message));
  }
  return causes;
}

function validateAnnotations(annotations: unknown): StatusCause[] {
  const field = 'metadata.annotations';
  if (annotations === undefined || annotations === null) return [];
  if (!isPlainObject(annotations)) return [invalidCause(field, annotations, 'must be an object')];
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    // Annotation keys are qualified names in which case does not matter.
    for (const message of isQualifiedName(key.toLowerCase())) causes.push(invalidCause(field, key, message));
    if (typeof value !== 'string') causes.push(invalidCause(field, value, 'must be a string'));
    else size += utf8Length(key) + utf8Length(value);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) causes.push(tooLongCause(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return causes;
}

function validateLists(meta: Record<string, unknown>): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Array.isArray(meta.finalizers)) causes.push(...validateFinalizers(strings(meta.finalizers)));
  else causes.push(...notAList('metadata.finalizers', meta.finalizers));
  if (Array.isArray(meta.ownerReferences)) causes.push(...validateOwnerReferences(meta.ownerReferences.filter(isPlainObject)));
  else causes.push(...notAList('metadata.ownerReferences', meta.ownerReferences));
  if (Array.isArray(meta.managedFields)) causes.push(...validateManagedFields(meta.managedFields));
  else causes.push(...notAList('metadata.managedFields', meta.managedFields));
  return causes;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function notAList(field: string, value: unknown): StatusCause[] {
  return value === undefined || value === null ? [] : [invalidCause(field, value, 'must be a list')];
}

function notAString(field: string, value: unknown): StatusCause[] {
  if (value === undefined || value === null || typeof value === 'string') return [];
  return [invalidCause(field, value, 'must be a string')];
}
