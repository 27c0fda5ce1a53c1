// The Go type of apiextensions.k8s.io/v1 CustomResourceDefinition, as far as its decoding goes.
// The OpenAPI schema of a version is only required to be an object: CRDs are schemaless here.

import { GO_BOOL, GO_BYTES, GO_INT32, GO_STRING, GO_TIME, goMap, goNamedString, goSlice, goStruct } from '../../apimachinery/go-json-type.js';
import { goObjectType } from '../../apimachinery/object-meta-go-type.js';

const STRINGS = goSlice(GO_STRING);

const NAMES = goStruct('v1', 'CustomResourceDefinitionNames', {
  plural: GO_STRING, singular: GO_STRING, shortNames: STRINGS, kind: GO_STRING, listKind: GO_STRING, categories: STRINGS,
});

const JSON_SCHEMA_PROPS = goStruct('v1', 'JSONSchemaProps', {
  type: GO_STRING,
  description: GO_STRING,
  required: STRINGS,
  properties: goMap(goStruct('v1', 'JSONSchemaProps', {})),
  'x-kubernetes-preserve-unknown-fields': GO_BOOL,
});

const SUBRESOURCES = goStruct('v1', 'CustomResourceSubresources', {
  status: goStruct('v1', 'CustomResourceSubresourceStatus', {}),
  scale: goStruct('v1', 'CustomResourceSubresourceScale', { specReplicasPath: GO_STRING, statusReplicasPath: GO_STRING, labelSelectorPath: GO_STRING }),
});

const COLUMN = goStruct('v1', 'CustomResourceColumnDefinition', {
  name: GO_STRING, type: GO_STRING, format: GO_STRING, description: GO_STRING, priority: GO_INT32, jsonPath: GO_STRING,
});

const VERSION = goStruct('v1', 'CustomResourceDefinitionVersion', {
  name: GO_STRING,
  served: GO_BOOL,
  storage: GO_BOOL,
  deprecated: GO_BOOL,
  deprecationWarning: GO_STRING,
  schema: goStruct('v1', 'CustomResourceValidation', { openAPIV3Schema: JSON_SCHEMA_PROPS }),
  subresources: SUBRESOURCES,
  additionalPrinterColumns: goSlice(COLUMN),
  selectableFields: goSlice(goStruct('v1', 'SelectableField', { jsonPath: GO_STRING })),
});

const CONVERSION = goStruct('v1', 'CustomResourceConversion', {
  strategy: goNamedString('v1.ConversionStrategyType'),
  webhook: goStruct('v1', 'WebhookConversion', {
    clientConfig: goStruct('v1', 'WebhookClientConfig', { url: GO_STRING, caBundle: GO_BYTES }),
    conversionReviewVersions: STRINGS,
  }),
});

const CONDITION = goStruct('v1', 'CustomResourceDefinitionCondition', {
  type: goNamedString('v1.CustomResourceDefinitionConditionType'),
  status: goNamedString('v1.ConditionStatus'),
  lastTransitionTime: GO_TIME,
  reason: GO_STRING,
  message: GO_STRING,
});

/** CRD_TYPE is apiextensions/v1.CustomResourceDefinition. */
export const CRD_TYPE = goObjectType('v1', 'CustomResourceDefinition', {
  spec: goStruct('v1', 'CustomResourceDefinitionSpec', {
    group: GO_STRING,
    names: NAMES,
    scope: goNamedString('v1.ResourceScope'),
    versions: goSlice(VERSION),
    conversion: CONVERSION,
    preserveUnknownFields: GO_BOOL,
  }),
  status: goStruct('v1', 'CustomResourceDefinitionStatus', { conditions: goSlice(CONDITION), acceptedNames: NAMES, storedVersions: STRINGS }),
});
