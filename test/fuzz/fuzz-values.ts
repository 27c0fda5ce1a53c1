// The raw material of fuzz requests: path segments, query values, content types and bodies that
// mix real names (so requests get past routing into handlers) with hostile values (so handlers
// see what a careless or malicious client sends).

import fc from 'fast-check';

/** SEED names what the fuzz test creates before it starts, so generated requests can hit real objects. */
export const SEED = Object.freeze({
  group: 'machines.svm.io',
  version: 'v1alpha1',
  resource: 'instances',
  kind: 'Instance',
  names: ['web-1', 'web-2', 'web-3'],
  cluster: 'root',
  shard: 'embedded',
  schema: 'v1alpha1.instances.machines.svm.io',
});

/** uriEncode percent-encodes any text; lone surrogates (which encodeURIComponent rejects) become U+FFFD. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'));
}

const HOSTILE_SEGMENTS = [
  '', '.', '..', '*', '%', '%00', '%ZZ', '%2F', '%2e%2e', '%E9', '%C3%28', '%F0%9F%98%80', 'a%20b', 'A', 'a..b',
  '-a', 'a-', 'a_b', 'x'.repeat(64), 'x'.repeat(254), 'x'.repeat(600), 'a:b', '__proto__', 'constructor', 'v1', 'core',
  'system:admin', '%ed%a0%80', '0', '-1', '1e999', 'null', 'undefined', 'true', "'", '"', '<script>', '$', '{', '}',
];

/** segment is one path segment: usually plausible, often hostile. */
export const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('root', 'default', 'embedded', 'kcp-system', 'team-b', ...SEED.names, SEED.schema) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(uriEncode) },
);

const SELECTORS = [
  'app=web', 'app in (a,b)', 'app notin ()', '!app', 'a,b', 'a=b=c', 'a in (', '(', ')', '!!', 'a!=', '=', 'x/y/z=1',
  'metadata.name=web-1', 'metadata.namespace!=default', 'spec.x=1', 'metadata.name=a\\', 'metadata.name==a,=b', '\\',
];

/** queryValue is a value for any query parameter. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '', '0', '1', '-1', '10000', '10001', '99999999999999999999', '1.5', 'NaN', 'Infinity', 'true', 'True', 'false', 'All', '*',
    'embedded/root/1', 'embedded/root/999999999', 'embedded/*/1', 'a/b', '//', 'embedded/root/-1', 'embedded/root/x',
    'eyJzIjoxLCJvIjo1fQ', 'eyJjIjoiIiwidCI6MX0', '%', '%ZZ', '%00', 'x'.repeat(5000), ...SELECTORS,
  ),
  fc.string({ maxLength: 16 }),
);

const PARAMS = [
  'labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'watch', 'timeoutSeconds',
  'allowWatchBookmarks', 'sendInitialEvents', 'dryRun', 'fieldManager', 'propagationPolicy', 'gracePeriodSeconds', 'pretty',
  'cluster', 'shard', 'namespace', 'schema', 'group', 'version', 'resource', 'name', 'minResourceVersion', 'verbose',
  'includeObject', 'query', 'variables', 'operationName', '__proto__', '',
];

/** query is a query string (with its '?') of random parameters, sometimes repeated, sometimes broken. */
export const query: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?a', '?%', '?limit=%', '?watch=1&timeoutSeconds=1', '?watch=true&resourceVersion=1') },
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...PARAMS), queryValue), { minLength: 1, maxLength: 5 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${/%/.test(v) && v.length < 5 ? v : uriEncode(v)}`).join('&')}`),
  },
);

/** contentType is a Content-Type header value, or undefined for none. */
export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined, 'application/json', 'application/merge-patch+json', 'application/json-patch+json',
  'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/yaml', 'application/vnd.kubernetes.protobuf',
  'application/graphql', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=latin1',
  'application/json;;', '*/*', 'garbage', '', 'application/json, text/plain',
);

function deep(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

const kubeObject = fc.record(
  {
    apiVersion: fc.constantFrom('v1', 'machines.svm.io/v1alpha1', 'apiextensions.k8s.io/v1', 'cache.kcp.io/v1alpha1', 'x', ''),
    kind: fc.constantFrom('ConfigMap', 'Instance', 'Namespace', 'CustomResourceDefinition', 'ClusterCachedResource', 'Secret', 'X'),
    metadata: fc.record(
      {
        name: fc.oneof(fc.constantFrom(...SEED.names, 'new-1'), segment, fc.jsonValue()),
        namespace: fc.oneof(fc.constantFrom('default', ''), fc.jsonValue()),
        generateName: fc.oneof(fc.constant('g-'), fc.jsonValue()),
        labels: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), fc.jsonValue()),
        annotations: fc.jsonValue(),
        resourceVersion: fc.oneof(queryValue, fc.jsonValue()),
        finalizers: fc.jsonValue(),
        uid: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
    spec: fc.jsonValue(),
    status: fc.jsonValue(),
    data: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

const patchDocument = fc.array(
  fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'x'), path: fc.constantFrom('', '/', '/metadata/labels/a', '/spec', '/metadata', '/~', 'x'), from: fc.constantFrom('/spec', '/metadata/name'), value: fc.jsonValue() }, { requiredKeys: ['op'] }),
  { maxLength: 4 },
);

/** body is a request body: objects and patches (valid-ish and not), garbage bytes, deep nesting. */
export const body: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: kubeObject.map((o) => Buffer.from(JSON.stringify(o))) },
  { weight: 2, arbitrary: patchDocument.map((o) => Buffer.from(JSON.stringify(o))) },
  { weight: 2, arbitrary: fc.jsonValue().map((o) => Buffer.from(JSON.stringify(o) ?? 'null')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constantFrom('{', '[', '{"a":', 'null', '""', '{"metadata":null}', '{"metadata":[]}', '\ufeff{}', '{"__proto__":{"x":1}}').map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), Buffer.from('{"a":"\\ud800"}')) },
  { weight: 1, arbitrary: fc.constantFrom(100, 5_000, 100_000).map((depth) => Buffer.from(deep(depth, '{"a":', '}'))) },
  { weight: 1, arbitrary: fc.constantFrom(100, 5_000, 100_000).map((depth) => Buffer.from(`{"metadata":{"name":"deep"},"spec":${deep(depth, '[', ']')}}`)) },
);
