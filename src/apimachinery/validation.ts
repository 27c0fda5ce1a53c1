// The validation entry point: Kubernetes name/label/annotation/config-key checks, object metadata
// validation and the Invalid error built from its causes. The code lives in the files re-exported
// here so that each stays small; callers import from this module.

export {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isLabelValue,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
} from './name-validation.js';
export { validateObjectMeta, validateObjectMetaUpdate, TOTAL_ANNOTATION_SIZE_LIMIT } from './validate-object-meta.js';
export { validateFinalizers, FIELD_MANAGER_MAX_BYTES, SUBRESOURCE_MAX_BYTES } from './validate-meta-lists.js';
export { isConfigMapKey } from './config-key.js';
export type { NameRule, ObjectMetaRules } from './validate-object-meta.js';
export { invalidError } from './invalid-error.js';
