// Fuzz requests over every route family: the REST facade (openapi/openapi.yaml), GraphQL, the
// embedded kube API, the cache API, probes, /metrics and /openapi.json, and raw requests that are
// not valid HTTP at all. Paths mostly follow the real route shapes so requests reach handlers.

import fc from 'fast-check';
import { graphqlRequest } from './fuzz-graphql.js';
import { body, contentType, query, SEED, segment } from './fuzz-values.js';
import type { FuzzRequest } from './raw-client.js';

const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'QUERY', 'get', 'G3T', 'LINK') },
);

const group = fc.oneof(fc.constantFrom(SEED.group, 'core', 'apiextensions.k8s.io', 'cache.kcp.io', ''), segment);
const version = fc.oneof(fc.constantFrom(SEED.version, 'v1', 'v1alpha1'), segment);
const resource = fc.oneof(fc.constantFrom(SEED.resource, 'configmaps', 'namespaces', 'secrets', 'customresourcedefinitions', 'clustercachedresources', 'cachedobjects'), segment);
const name = fc.oneof(fc.constantFrom(...SEED.names, SEED.schema, `${SEED.schema}.web-1`), segment);

const restPath: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(group, version, resource, name).map(([g, v, r, n]) => `/v1/objects/${g}/${v}/${r}/${n}`),
  fc.tuple(group, version, resource, name).map(([g, v, r, n]) => `/v1/objects/${g}/${v}/${r}/${n}/status`),
  fc.tuple(group, version, resource).map(([g, v, r]) => `/v1/objects/${g}/${v}/${r}`),
  fc.tuple(group, version).map(([g, v]) => `/v1/objects/${g}/${v}`),
  fc.constantFrom('/v1/cachedobjects', '/v1/schemas', '/v1/clustercachedresources', '/openapi.json', '/docs', '/docs/', '/docs/json', '/v1', '/v1/'),
  name.map((n) => `/v1/cachedobjects/${n}`),
  name.map((n) => `/v1/schemas/${n}/objects`),
);

const clusterPrefix = fc.oneof(fc.constantFrom('/clusters/root', '/clusters/*', '/clusters/team-b', ''), segment.map((c) => `/clusters/${c}`));
const namespace = fc.oneof(fc.constantFrom('default', 'kcp-system'), segment);

const kubeSuffix: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('/version', '/api', '/api/v1', '/apis', '/openapi/v2', '/openapi/v3', '/apis/apiextensions.k8s.io/v1', `/apis/${SEED.group}`, '/healthz', ''),
  fc.tuple(group, version).map(([g, v]) => `/apis/${g}/${v}`),
  fc.tuple(resource, fc.option(name)).map(([r, n]) => `/api/v1/${r}${n === null ? '' : `/${n}`}`),
  fc.tuple(namespace, resource, fc.option(name), fc.constantFrom('', '/status', '/scale', '/x')).map(([ns, r, n, sub]) => `/api/v1/namespaces/${ns}/${r}${n === null ? '' : `/${n}${sub}`}`),
  fc.tuple(group, version, resource, fc.option(name), fc.constantFrom('', '/status', '/x')).map(([g, v, r, n, sub]) => `/apis/${g}/${v}/${r}${n === null ? '' : `/${n}${sub}`}`),
  fc.tuple(group, version, namespace, resource, fc.option(name)).map(([g, v, ns, r, n]) => `/apis/${g}/${v}/namespaces/${ns}/${r}${n === null ? '' : `/${n}`}`),
  fc.option(name).map((n) => `/apis/cache.kcp.io/v1alpha1/clustercachedresources${n === null ? '' : `/${n}`}`),
  fc.option(name).map((n) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions${n === null ? '' : `/${n}`}`),
);

const cachePath: fc.Arbitrary<string> = fc.tuple(
  fc.oneof(fc.constantFrom('*', SEED.shard), segment),
  fc.oneof(fc.constantFrom('*', SEED.cluster), segment),
  fc.constantFrom('/apis/cache.kcp.io/v1alpha1/cachedobjects', '/apis/cache.kcp.io/v1alpha1', '/apis', '/api', ''),
  fc.option(name),
).map(([shard, cluster, rest, n]) => `/services/cache/shards/${shard}/clusters/${cluster}${rest}${n === null || rest === '' ? '' : `/${n}`}`);

const probePath = fc.constantFrom('/livez', '/readyz', '/readyz?verbose', '/healthz', '/healthz?verbose=1', '/metrics', '/metrics?x=%', '/', '/favicon.ico');

const ACCEPT = [
  'application/json', 'application/json;as=Table;g=meta.k8s.io;v=v1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
  'application/vnd.kubernetes.protobuf', 'application/yaml', 'text/event-stream', 'text/html', '*/*', 'garbage/;;;', '',
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
];

const headers: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'content-type': contentType,
      accept: fc.constantFrom(...ACCEPT),
      'x-request-id': fc.oneof(fc.uuid(), fc.string({ maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, '')), fc.constant('x'.repeat(3000))),
      'if-none-match': fc.constantFrom('"1"', '*', 'W/"x"'),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'x', 'identity;q=0'),
      'last-event-id': fc.constantFrom('1', 'x', '99999999999999999999'),
    },
    { requiredKeys: [] },
  )
  .map((h) => Object.fromEntries(Object.entries(h).filter((entry): entry is [string, string] => entry[1] !== undefined)));

function httpRequest(paths: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(method, paths, query, headers, body).map(([m, path, q, h, b]) => ({
    method: m,
    path: path.includes('?') ? path : `${path}${q}`,
    headers: h,
    ...(b === undefined ? {} : { body: b }),
  }));
}

// Not HTTP, or HTTP that lies: the server's parser must answer 4xx or close, never crash or hang.
const RAW_REQUESTS = [
  'GET\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 11\r\n\r\n0123456789',
  'POST /v1/objects/core/v1/configmaps?cluster=root HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  'POST /clusters/root/api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  'GET /livez HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'GET /livez HTTP/1.1\r\nHost: x\r\n: empty\r\n\r\n',
  `GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'GET /v1/cachedobjects\u0000 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /clusters/root/api/v1/namespaces HTTP/1.1\n\n',
  'GET http://evil.example/livez HTTP/1.1\r\nHost: x\r\n\r\n', 'GET * HTTP/1.1\r\nHost: x\r\n\r\n', 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /graphql HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n\u0081\u0085garbage',
  '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
];

/** rawRequest is a request given as bytes, broken at the HTTP level. */
export const rawRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc.constantFrom(...RAW_REQUESTS).map((text) => ({ method: '', path: '', headers: {}, raw: Buffer.from(text, 'latin1') })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ method: '', path: '', headers: {}, raw: Buffer.from(bytes) })),
);

/** fuzzRequest draws one request from any route family, weighted towards the handlers with most logic. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 5, arbitrary: httpRequest(restPath) },
  { weight: 6, arbitrary: httpRequest(fc.tuple(clusterPrefix, kubeSuffix).map(([prefix, suffix]) => prefix + suffix)) },
  { weight: 3, arbitrary: httpRequest(cachePath) },
  { weight: 4, arbitrary: graphqlRequest },
  { weight: 1, arbitrary: httpRequest(probePath) },
  { weight: 1, arbitrary: rawRequest },
);
