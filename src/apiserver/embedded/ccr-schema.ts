// The OpenAPI schema of cache.kcp.io/v1alpha1 ClusterCachedResource, the same as the CRD that
// deploy/crds/cache.kcp.io_clustercachedresources.yaml installs in real clusters (a unit test keeps
// the two equal), so the embedded source refuses what a real cluster would.

import type { StructuralSchema } from '../../apimachinery/structural-schema.js';

const STRING: StructuralSchema = { type: 'string' };

const LABEL_SELECTOR: StructuralSchema = {
  type: 'object',
  properties: {
    matchLabels: { type: 'object', additionalProperties: STRING },
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: {
          key: STRING,
          operator: { type: 'string', enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
          values: { type: 'array', items: STRING },
        },
      },
    },
  },
};

const SPEC: StructuralSchema = {
  type: 'object',
  required: ['resource', 'version'],
  properties: {
    group: STRING,
    version: STRING,
    resource: { type: 'string', pattern: '^[a-z][-a-z0-9]*[a-z0-9]$' },
    identity: {
      type: 'object',
      properties: { secretRef: { type: 'object', required: ['name'], properties: { namespace: STRING, name: STRING } } },
    },
    labelSelector: LABEL_SELECTOR,
  },
};

const STATUS: StructuralSchema = {
  type: 'object',
  properties: {
    phase: { type: 'string', enum: ['Initializing', 'Ready', 'Deleting', 'Deleted'] },
    identityHash: STRING,
    resourceCounts: { type: 'object', properties: { local: { type: 'integer' }, cache: { type: 'integer' } } },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'status'],
        properties: {
          type: STRING,
          status: STRING,
          reason: STRING,
          message: STRING,
          lastTransitionTime: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};

/** CCR_SCHEMA is the openAPIV3Schema of ClusterCachedResource v1alpha1. */
export const CCR_SCHEMA: StructuralSchema = {
  type: 'object',
  required: ['spec'],
  properties: { apiVersion: STRING, kind: STRING, metadata: { type: 'object' }, spec: SPEC, status: STATUS },
};
