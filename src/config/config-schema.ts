// The config file's schema: one place for every field's type, range, default and meaning. The
// validator (config-validator.ts) checks a file against it and fills in the defaults; the
// config's types (config.ts) are derived from it; the README's field table is checked against it.

import { Type } from '@sinclair/typebox';
import { getHeapStatistics } from 'node:v8';
import { AuthSchema } from './auth-schema.js';
import { DURATION_EXAMPLES } from './duration.js';
import { GVK_FORMAT } from './gvk.js';
import { listOf, logicalClusterName, nonEmptyString, oneOf, section, strictObject, wholeNumber } from './schema-builders.js';

/** LOG_LEVELS are pino's levels. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * DEFAULT_EVENT_WINDOW_BYTES is an eighth of this process's V8 heap limit (so it follows
 * --max-old-space-size): the two windows keep at most a quarter of the heap in old versions, and
 * the rest stays for the current objects and the requests in flight.
 */
export const DEFAULT_EVENT_WINDOW_BYTES = Math.floor(getHeapStatistics().heap_size_limit / 8);

/** DEFAULT_CACHE_TTL is the seed's overlay entry lifetime; a ttl of 0 means it too. */
export const DEFAULT_CACHE_TTL = '2m';

/** SourceSchema is one more Kubernetes-compatible API server to replicate from. */
export const SourceSchema = strictObject({
  name: Type.String({ pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$', title: 'lowercase DNS label', hint: 'must be a lowercase DNS label', description: 'the source\'s name, the `shard` of its objects' }),
  kind: oneOf(['kube', 'kcp'], { default: 'kube', description: '`kube`: one cluster; `kcp`: a kcp-style server, read across `/clusters/*`' }),
  kubeconfig: Type.Optional(nonEmptyString({ defaultText: 'the default kubeconfig', description: 'path of the kubeconfig that reaches it' })),
  context: Type.Optional(nonEmptyString({ defaultText: 'its current context', description: 'the kubeconfig context to use' })),
  cluster: Type.Optional(logicalClusterName({ defaultText: 'the source name (`root` for kcp)', description: 'the logical cluster of every object of a `kube` source' })),
});

const CacheSchema = section({
  enabled: Type.Boolean({ default: false, description: 'turn the read-your-writes overlay on' }),
  gvks: listOf(Type.String({ format: 'gvk', title: `\`${GVK_FORMAT}\``, hint: `must be ${GVK_FORMAT}` }), { default: [], description: 'the kinds whose writes are overlaid (`v1/Secret` for the core group)' }),
  ttl: Type.String({
    format: 'duration', maxDuration: '24h', default: DEFAULT_CACHE_TTL, title: 'duration',
    hint: `must be a duration such as ${DURATION_EXAMPLES}`, description: `how long an overlay entry may live (see Durations); 0 means ${DEFAULT_CACHE_TTL}`,
  }),
});

const WebsocketSchema = section({
  maxMessageBytes: wholeNumber(1024, 64 * 1024 * 1024, { default: 128 * 1024, description: 'largest frame a connection may send (larger: close 1009)' }),
  messagesPerSecond: wholeNumber(1, 1_000_000, { default: 10, description: 'messages a connection may send per second (more: close 1008)' }),
  messageBurst: wholeNumber(1, 10_000_000, { default: 30, description: 'burst above that rate' }),
  initTimeoutMs: wholeNumber(100, 600_000, { default: 10_000, description: 'time to send `connection_init` (then: close 4408)' }),
});

const EtcdSchema = section({
  endpoints: listOf(nonEmptyString({ title: 'URL' }), { default: ['http://127.0.0.1:2379'], title: 'list of URLs', description: 'client URLs of the etcd members' }),
  prefix: Type.String({ pattern: '^/[^\\s]*[^/\\s]$', default: '/cachegate', title: 'key prefix', hint: 'must start with / and not end with /', description: 'prefix of every key cachegate writes' }),
  tls: Type.Optional(strictObject({
    ca: Type.Optional(nonEmptyString({ description: 'PEM file of the CA that signed the members\' certificates' })),
    cert: Type.Optional(nonEmptyString({ description: 'PEM file of the client certificate' })),
    key: Type.Optional(nonEmptyString({ description: 'PEM file of the client key' })),
  }, { description: 'TLS files for `https://` endpoints' })),
  dialTimeoutSeconds: wholeNumber(1, 300, { default: 5, description: 'how long to wait for a connection to a member' }),
  compactIntervalMinutes: wholeNumber(0, 1440, { default: 5, description: 'how often old revisions are compacted; 0 = never' }),
});

// An origin exactly as a browser sends it in `Origin`, since CORS compares the two as strings:
// lowercase, no path or trailing slash, no default port (a browser leaves :80 and :443 out).
const HOST_LABEL = '[a-z0-9]([a-z0-9-]*[a-z0-9])?';
const ORIGIN_HOST = `(${HOST_LABEL}(\\.${HOST_LABEL})*|\\[[0-9a-f:.]+\\])`;
const ORIGIN_PATTERN = `^(\\*|(?!http://.*:80$)(?!https://.*:443$)https?://${ORIGIN_HOST}(:[1-9][0-9]{0,4})?)$`;

const HttpSchema = section({
  cors: section({
    origins: listOf(Type.String({
      pattern: ORIGIN_PATTERN,
      hint: 'must be an origin as a browser sends it, scheme://host[:port] (http or https, lowercase, no path or trailing slash, no default port), or * for any origin',
    }), { default: [], title: 'list of origins (`https://host[:port]`), or `*`', description: 'origins whose pages may call the REST and GraphQL APIs with credentials (CORS); `*` = any origin; empty = no CORS headers' }),
  }),
});

/** ConfigSchema is the whole config file. */
export const ConfigSchema = strictObject({
  host: Type.String({ pattern: '^[A-Za-z0-9.:[\\]-]+$', default: '127.0.0.1', title: 'host name or IP address', hint: 'must be a host name or IP address', description: 'address to listen on' }),
  port: wholeNumber(0, 65535, { default: 8080, description: 'port to listen on; 0 picks a free one' }),
  logLevel: oneOf(LOG_LEVELS, { default: 'info', description: 'level of the JSON logs' }),
  embedded: section({
    enabled: Type.Boolean({ default: true, description: 'serve the embedded kube-compatible source at `/clusters/{cluster}`' }),
    clusters: listOf(logicalClusterName(), { default: ['root'], title: 'list of logical cluster names', description: 'logical clusters it creates at start' }),
  }),
  sources: listOf(SourceSchema, { default: [], description: 'more sources, each reached through a kubeconfig' }),
  cache: CacheSchema,
  store: section({
    backend: oneOf(['local', 'etcd', 'memory'], { default: 'local', description: 'where state is kept: `local` (an embedded database in `dataDir`), `etcd`, or `memory` (lost at exit)' }),
    dataDir: nonEmptyString({ default: './.cachegate', description: 'directory of the `local` backend (accepted and unused with the others)' }),
    fsync: Type.Boolean({ default: true, description: '`local`: acknowledge a write only once it is on disk; false trades durability for speed (tests, benches)' }),
    etcd: EtcdSchema,
    eventWindow: wholeNumber(100, 10_000_000, { default: 100_000, description: 'events each store keeps for resuming watches' }),
    eventWindowBytes: wholeNumber(1 << 20, 2 ** 40, { default: DEFAULT_EVENT_WINDOW_BYTES, defaultText: 'an eighth of the heap limit', description: 'estimated object bytes those events may hold (see below)' }),
  }),
  watch: section({
    timeoutSeconds: wholeNumber(1, 86_400, { default: 1800, description: 'longest a watch stays open (clients then re-watch)' }),
    bookmarkIntervalSeconds: wholeNumber(0, 3600, { default: 60, description: 'how often a watch that allows bookmarks gets one; 0 = never' }),
    maxBufferedBytes: wholeNumber(65_536, 1 << 30, { default: 16 * 1024 * 1024, description: 'bytes buffered for one slow watch, SSE stream or subscription before it is ended' }),
  }),
  limits: section({
    bodyBytes: wholeNumber(1024, 64 * 1024 * 1024, { default: 3 * 1024 * 1024, description: 'largest request body (larger: 413)' }),
    maxEventLoopDelayMs: wholeNumber(0, 60_000, { default: 1000, description: 'event-loop delay above which requests are shed with 503; 0 = never' }),
    minResourceVersionWaitMs: wholeNumber(0, 60_000, { default: 5000, description: 'longest a read with `minResourceVersion` waits (then: 504)' }),
  }),
  http: HttpSchema,
  ha: section({
    leaseSeconds: wholeNumber(2, 120, { default: 10, description: 'with the etcd backend: the leader election lease; a replica that stops renewing it (killed, paused) loses the leadership this long after' }),
    consistentReadWaitMs: wholeNumber(100, 60_000, { default: 5000, description: 'with the etcd backend: longest a consistent read waits for this replica\'s cache to reach etcd\'s revision (then: 504)' }),
  }),
  graphql: section({ websocket: WebsocketSchema }),
  workers: section({
    clusterCachedResources: wholeNumber(1, 64, { default: 2, description: 'reconcile workers of each ClusterCachedResources controller' }),
    replication: wholeNumber(1, 1024, { default: 256, description: 'reconcile workers of each replication controller (with a durable backend each copy write waits for its commit: the writes in flight together share a commit)' }),
  }),
  auth: Type.Optional(AuthSchema),
});
