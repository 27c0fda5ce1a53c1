// OpenAPI v3 schemas of the non-core built-in kinds: CustomResourceDefinition (compact),
// ClusterCachedResource (its validation schema plus descriptions) and the cache API's CachedObject.

import { CCR_SCHEMA } from '../embedded/ccr-schema.js';
import type { KindSchema } from './core-schemas.js';
import { customResourceSchema } from './custom-resource-schema.js';
import { withDescriptions } from './describe-schema.js';
import type { OpenApiSchema } from './meta-schemas.js';
import { API_VERSION, KIND, OBJECT_METADATA, ref, text } from './meta-schemas.js';

const APIEXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

const PRESERVED: OpenApiSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

const CRD_VERSION: OpenApiSchema = {
  type: 'object',
  description: 'CustomResourceDefinitionVersion describes a version for CRD.',
  required: ['name', 'served', 'storage'],
  properties: {
    name: text('name is the version name, e.g. "v1", "v2beta1", etc. The custom resources are served under this '
      + 'version at `/apis/<group>/<version>/...` if `served` is true.', { default: '' }),
    served: { type: 'boolean', default: false, description: 'served is a flag enabling/disabling this version from being served via REST APIs.' },
    storage: { type: 'boolean', default: false, description: 'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.' },
    schema: { ...PRESERVED, description: 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource (openAPIV3Schema).' },
    subresources: { ...PRESERVED, description: 'subresources specify what subresources this version of the defined custom resource have (status, scale).' },
    additionalPrinterColumns: {
      type: 'array', items: PRESERVED,
      description: 'additionalPrinterColumns specifies additional columns returned in Table output.',
    },
  },
};

const CRD_NAMES: OpenApiSchema = {
  type: 'object',
  description: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition.',
  required: ['plural', 'kind'],
  properties: {
    plural: text('plural is the plural name of the resource to serve. Must be all lowercase.', { default: '' }),
    singular: text('singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'),
    kind: text('kind is the serialized kind of the resource. It is normally CamelCase and singular.', { default: '' }),
    listKind: text('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
    shortNames: { type: 'array', items: { type: 'string', default: '' }, description: 'shortNames are short names for the resource, exposed in API discovery documents.' },
    categories: { type: 'array', items: { type: 'string', default: '' }, description: 'categories is a list of grouped resources this custom resource belongs to (e.g. \'all\').' },
  },
};

const CRD: KindSchema = {
  name: `${APIEXT}.CustomResourceDefinition`,
  schema: {
    type: 'object',
    description: 'CustomResourceDefinition represents a resource that should be exposed on the API server. Its name '
      + 'MUST be in the format <.spec.name>.<.spec.group>.',
    required: ['spec'],
    properties: {
      apiVersion: API_VERSION, kind: KIND, metadata: OBJECT_METADATA,
      spec: ref(`${APIEXT}.CustomResourceDefinitionSpec`, 'spec describes how the user wants the resources to appear', { default: {} }),
      status: { ...PRESERVED, description: 'status indicates the actual state of the CustomResourceDefinition' },
    },
  },
  components: {
    [`${APIEXT}.CustomResourceDefinitionSpec`]: {
      type: 'object',
      description: 'CustomResourceDefinitionSpec describes how a user wants their resource to appear',
      required: ['group', 'names', 'scope', 'versions'],
      properties: {
        group: text('group is the API group of the defined custom resource. The custom resources are served under '
          + '`/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).', { default: '' }),
        names: ref(`${APIEXT}.CustomResourceDefinitionNames`, 'names specify the resource and kind names for the custom resource.', { default: {} }),
        scope: text('scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed '
          + 'values are `Cluster` and `Namespaced`.', { default: '' }),
        versions: {
          type: 'array', items: { allOf: [{ $ref: `#/components/schemas/${APIEXT}.CustomResourceDefinitionVersion` }], default: {} },
          'x-kubernetes-list-type': 'atomic',
          description: 'versions is the list of all API versions of the defined custom resource. Only one version may '
            + 'be the storage version.',
        },
        conversion: { ...PRESERVED, description: 'conversion defines conversion settings for the CRD.' },
        preserveUnknownFields: { type: 'boolean', description: 'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.' },
      },
    },
    [`${APIEXT}.CustomResourceDefinitionNames`]: CRD_NAMES,
    [`${APIEXT}.CustomResourceDefinitionVersion`]: CRD_VERSION,
  },
};

const CCR: KindSchema = {
  name: 'io.kcp.cache.v1alpha1.ClusterCachedResource',
  schema: customResourceSchema(withDescriptions(CCR_SCHEMA, {
    '': 'ClusterCachedResource asks cachegate to replicate one resource (a group, version and resource, optionally '
      + 'filtered by labels) of this logical cluster into its cache.',
    'spec': 'What to replicate.',
    'spec.group': 'API group of the resource; empty for the core group.',
    'spec.version': 'API version of the resource, e.g. v1alpha1.',
    'spec.resource': 'Plural resource name, e.g. instances.',
    'spec.identity': 'The identity of the replication; set by the server when absent.',
    'spec.identity.secretRef': 'The Secret whose data.key is the identity key.',
    'spec.labelSelector': 'Selects the objects to replicate; matchLabels and matchExpressions are both honoured.',
    'status': 'How the replication is going.',
    'status.phase': 'Where the replication is: Initializing, Ready, Deleting or Deleted.',
    'status.identityHash': 'Hex SHA-256 of the identity key.',
    'status.resourceCounts': 'How many objects are selected in the source (local) and copied in the cache (cache).',
    'status.conditions': 'The latest observations of the replication\'s state.',
  })),
};

const CACHED_OBJECT: KindSchema = {
  name: 'io.kcp.cache.v1alpha1.CachedObject',
  schema: {
    type: 'object',
    description: 'CachedObject is a copy of one object of a logical cluster, kept in the cache. It is read-only.',
    properties: {
      apiVersion: API_VERSION, kind: KIND, metadata: OBJECT_METADATA,
      spec: {
        type: 'object',
        description: 'The cached copy.',
        required: ['raw'],
        properties: {
          raw: { ...PRESERVED, description: 'The original object, as it was in its logical cluster.' },
        },
      },
    },
  },
};

/** EXTENSION_KINDS are the non-core built-in schemas, by `group/version/kind`. */
export const EXTENSION_KINDS: Readonly<Record<string, KindSchema>> = Object.freeze({
  'apiextensions.k8s.io/v1/CustomResourceDefinition': CRD,
  'cache.kcp.io/v1alpha1/ClusterCachedResource': CCR,
  'cache.kcp.io/v1alpha1/CachedObject': CACHED_OBJECT,
});
