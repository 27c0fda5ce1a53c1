// Validation of the metadata of an incoming object, following Kubernetes' ValidateObjectMeta:
// the same checks, the same cause reasons and the same message wording. Causes are reported
// per field (metadata.labels, not metadata.labels.<key>), as Kubernetes does.

import type { StatusCause } from '../errors.js';
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
  if (meta === undefined || meta === null) return [required('metadata', '')];
  if (!isPlainObject(meta)) return [invalid('metadata', meta, 'must be an object')];
  return [
    ...validateNames(meta, rules.nameRule),
    ...validateNamespace(meta.namespace, rules.namespaced),
    ...validateLabels(meta.labels),
    ...validateAnnotations(meta.annotations),
  ];
}

function validateNames(meta: Record<string, unknown>, rule: NameRule): StatusCause[] {
  const causes = [...notAString('metadata.name', meta.name), ...notAString('metadata.generateName', meta.generateName)];
  if (causes.length > 0) return causes;
  const name = typeof meta.name === 'string' ? meta.name : '';
  const generateName = typeof meta.generateName === 'string' ? meta.generateName : '';
  for (const message of nameErrors(generateName, rule, true)) {
    causes.push(invalid('metadata.generateName', generateName, message));
  }
  // An invalid prefix makes any generated name invalid too; report the problem only once.
  if (causes.length > 0 || (name === '' && generateName !== '')) return causes;
  if (name === '') return [required('metadata.name', 'name or generateName is required')];
  return nameErrors(name, rule, false).map((message) => invalid('metadata.name', name, message));
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
  if (!namespaced) return value === '' ? [] : [forbidden(field, 'not allowed on this type')];
  if (value === '') return [required(field, '')];
  return isDNS1123Label(value).map((message) => invalid(field, value, message));
}

function validateLabels(labels: unknown): StatusCause[] {
  const field = 'metadata.labels';
  if (labels === undefined || labels === null) return [];
  if (!isPlainObject(labels)) return [invalid(field, labels, 'must be an object')];
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(labels)) {
    for (const message of isQualifiedName(key)) causes.push(invalid(field, key, message));
    if (typeof value !== 'string') causes.push(invalid(field, value, 'must be a string'));
    else for (const message of isValidLabelValue(value)) causes.push(invalid(field, value, message));
  }
  return causes;
}

function validateAnnotations(annotations: unknown): StatusCause[] {
  const field = 'metadata.annotations';
  if (annotations === undefined || annotations === null) return [];
  if (!isPlainObject(annotations)) return [invalid(field, annotations, 'must be an object')];
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    // Annotation keys are qualified names in which case does not matter.
    for (const message of isQualifiedName(key.toLowerCase())) causes.push(invalid(field, key, message));
    if (typeof value !== 'string') causes.push(invalid(field, value, 'must be a string'));
    else size += utf8Length(key) + utf8Length(value);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    causes.push(cause('FieldValueTooLong', field, `Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`));
  }
  return causes;
}

function notAString(field: string, value: unknown): StatusCause[] {
  if (value === undefined || value === null || typeof value === 'string') return [];
  return [invalid(field, value, 'must be a string')];
}

function cause(reason: string, field: string, message: string): StatusCause {
  return { reason, message, field };
}

function invalid(field: string, value: unknown, detail: string): StatusCause {
  return cause('FieldValueInvalid', field, `Invalid value: ${formatValue(value)}: ${detail}`);
}

function required(field: string, detail: string): StatusCause {
  return cause('FieldValueRequired', field, detail === '' ? 'Required value' : `Required value: ${detail}`);
}

function forbidden(field: string, detail: string): StatusCause {
  return cause('FieldValueForbidden', field, `Forbidden: ${detail}`);
}

// Strings are quoted like Go's %q; other values are shown as (truncated) JSON.
function formatValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 100 ? `${json.slice(0, 100)}...` : json;
}
