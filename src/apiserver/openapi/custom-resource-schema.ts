// A custom resource's schema as kube-apiserver publishes it in OpenAPI v3.

import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { OpenApiSchema } from './meta-schemas.js';
import { API_VERSION, KIND, OBJECT_METADATA } from './meta-schemas.js';

/**
 * customResourceSchema is a CRD version's openAPIV3Schema with apiVersion, kind and metadata (a
 * reference to ObjectMeta) set among its properties, described. Anything but an object is read as
 * an empty schema, so a CRD written without one still gets its type meta fields explained.
 */
export function customResourceSchema(openApiV3Schema: unknown): OpenApiSchema {
  const schema = isPlainObject(openApiV3Schema) ? openApiV3Schema : {};
  const properties = isPlainObject(schema['properties']) ? schema['properties'] : {};
  return {
    ...schema,
    type: 'object',
    properties: { ...properties, apiVersion: API_VERSION, kind: KIND, metadata: OBJECT_METADATA },
  };
}
