// The small pure parts of the OpenAPI v3 endpoints: descriptions added by field path, Accept
// negotiation, the ETag and the mount prefix read from the request path.
//   case 1: withDescriptions sets the root's, nested properties' and array items' descriptions, and leaves its input alone
//   case 2: withDescriptions throws for a path the schema does not have (a mistake in the table)
//   case 3: acceptsJson admits JSON, application/*, */* and no header; refuses protobuf alone and q=0
//   case 4: etagOf is the upper-case hex SHA-512 of the body
//   case 5: mountPrefix drops the route's own segments, a trailing slash and the query

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CCR_SCHEMA } from '../../../../src/apiserver/embedded/ccr-schema.js';
import { withDescriptions } from '../../../../src/apiserver/openapi/describe-schema.js';
import { acceptsJson, etagOf, mountPrefix } from '../../../../src/apiserver/openapi/openapi-v3-routes.js';

describe('OpenAPI v3 helpers', () => {
  it('case 1: withDescriptions sets the root\'s, nested properties\' and array items\' descriptions, and leaves its input alone', () => {
    const before = JSON.stringify(CCR_SCHEMA);
    const described = withDescriptions(CCR_SCHEMA, {
      '': 'root', 'spec.group': 'the group', 'status.conditions[].reason': 'why',
    });
    expect(described['description']).toBe('root');
    const properties = described['properties'] as Record<string, { properties: Record<string, { description?: string; items?: { properties: Record<string, { description?: string }> } }> }>;
    expect(properties['spec']?.properties['group']?.description).toBe('the group');
    expect(properties['status']?.properties['conditions']?.items?.properties['reason']?.description).toBe('why');
    expect(JSON.stringify(CCR_SCHEMA)).toBe(before);
  });

  it('case 2: withDescriptions throws for a path the schema does not have (a mistake in the table)', () => {
    expect(() => withDescriptions(CCR_SCHEMA, { 'spec.nothing': 'x' })).toThrow('spec.nothing');
    expect(() => withDescriptions(CCR_SCHEMA, { 'spec.group[]': 'x' })).toThrow();
    expect(() => withDescriptions('not a schema', {})).toThrow();
  });

  it.each([
    [undefined, true],
    ['', true],
    ['application/json', true],
    ['application/json, */*', true],
    ['application/*', true],
    ['*/*;q=0.5', true],
    ['application/com.github.proto-openapi.spec.v3@v1.0+protobuf', false],
    ['application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json;q=0.9', true],
    ['application/json;q=0', false],
    ['text/html', false],
  ])('case 3: acceptsJson(%j) is %s', (accept, expected) => {
    expect(acceptsJson(accept)).toBe(expected);
  });

  it('case 4: etagOf is the upper-case hex SHA-512 of the body', () => {
    const tag = etagOf('{"paths":{}}');
    expect(tag).toBe(createHash('sha512').update('{"paths":{}}').digest('hex').toUpperCase());
    expect(tag).toMatch(/^[0-9A-F]{128}$/);
  });

  it('case 5: mountPrefix drops the route\'s own segments, a trailing slash and the query', () => {
    expect(mountPrefix({ url: '/clusters/root/openapi/v3' }, 2)).toBe('/clusters/root');
    expect(mountPrefix({ url: '/clusters/root/openapi/v3/api/v1?hash=AB' }, 4)).toBe('/clusters/root');
    expect(mountPrefix({ url: '/services/cache/shards/*/clusters/root/openapi/v3/apis/cache.kcp.io/v1alpha1' }, 5)).toBe('/services/cache/shards/*/clusters/root');
    expect(mountPrefix({ url: '/openapi/v3' }, 2)).toBe('');
    expect(mountPrefix({ url: '/clusters/root/openapi/v3/' }, 2)).toBe('/clusters/root');
  });
});
