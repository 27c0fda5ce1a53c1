// The configuration of one cachegate process, and its defaults. Only load-config.ts builds one;
// everything else receives it frozen.

import { getHeapStatistics } from 'node:v8';

/** SourceConfig is one Kubernetes-compatible API server to replicate from. */
export interface SourceConfig {
  readonly name: string;
  readonly kind: 'kube' | 'kcp';
  readonly kubeconfig?: string;
  readonly context?: string;
  /** cluster is the logical-cluster name given to every object of a `kube` source. */
  readonly cluster?: string;
}

/** AccessVerb is what a token may do: read (get, list, watch) and write (every other verb). */
export type AccessVerb = 'read' | 'write';

/** TokenConfig is one bearer token and what it may reach. */
export interface TokenConfig {
  readonly token: string;
  /** user names the token's holder in logs and errors (the token itself is never logged). */
  readonly user: string;
  /** clusters limits the token to these logical clusters; absent = every cluster. */
  readonly clusters?: readonly string[];
  readonly verbs: readonly AccessVerb[];
}

/** RateLimitConfig is each token's token bucket: a sustained rate and a burst. */
export interface RateLimitConfig {
  readonly requestsPerSecond: number;
  readonly burst: number;
}

/** AuthConfig turns authentication on. tokens holds those of `tokensFile` too, once loaded. */
export interface AuthConfig {
  readonly tokens: readonly TokenConfig[];
  /** tokensFile is where more tokens were read from (a Secret mounted as a file, kept out of the config). */
  readonly tokensFile?: string;
  /** metrics: `open` serves /metrics without a token, `protected` asks for one. */
  readonly metrics: 'open' | 'protected';
  readonly rateLimit?: RateLimitConfig;
}

/** WebsocketLimits bound each GraphQL WebSocket connection (subscriptions). */
export interface WebsocketLimits {
  /** maxMessageBytes: a larger frame closes the connection with 1009 before it is read. */
  readonly maxMessageBytes: number;
  /** messagesPerSecond and messageBurst are each connection's token bucket; past it, close 1008. */
  readonly messagesPerSecond: number;
  readonly messageBurst: number;
  /** initTimeoutMs: a connection that has not sent connection_init by then is closed with 4408. */
  readonly initTimeoutMs: number;
}

/** Config is the whole, validated configuration. */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  readonly embedded: { readonly enabled: boolean; readonly clusters: readonly string[] };
  readonly sources: readonly SourceConfig[];
  /** cache is the overlay cache of read-your-writes (the seed's RootConfig). */
  readonly cache: { readonly enabled: boolean; readonly gvks: readonly string[]; readonly ttl: string };
  /**
   * store bounds each store's event window (the embedded source's and the cache's): eventWindow
   * events, and eventWindowBytes of estimated object bytes; the oldest events go first.
   */
  readonly store: { readonly eventWindow: number; readonly eventWindowBytes: number };
  readonly watch: {
    readonly timeoutSeconds: number;
    readonly bookmarkIntervalSeconds: number;
    readonly maxBufferedBytes: number;
  };
  readonly limits: {
    readonly bodyBytes: number;
    /** maxEventLoopDelayMs: above it requests are shed with 503 + Retry-After; 0 = never. */
    readonly maxEventLoopDelayMs: number;
    /** minResourceVersionWaitMs bounds how long a read with `minResourceVersion` waits for replication (then 504). */
    readonly minResourceVersionWaitMs: number;
  };
  /** graphql bounds the GraphQL WebSocket connections (the document limits are fixed: schema/README.md). */
  readonly graphql: { readonly websocket: WebsocketLimits };
  /** workers are the reconcile workers of each root controller and of each replication controller. */
  readonly workers: { readonly clusterCachedResources: number; readonly replication: number };
  /** auth: absent = no authentication (every route open). */
  readonly auth?: AuthConfig;
}

/** LOG_LEVELS are pino's levels. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** LogLevel is one of pino's levels. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * DEFAULT_EVENT_WINDOW_BYTES is an eighth of this process's V8 heap limit (so it follows
 * --max-old-space-size): the two windows keep at most a quarter of the heap in old versions, and
 * the rest stays for the current objects and the requests in flight.
 */
export const DEFAULT_EVENT_WINDOW_BYTES = Math.floor(getHeapStatistics().heap_size_limit / 8);

/** DEFAULT_CONFIG is what `npm start` runs with: the embedded source with cluster `root` on 127.0.0.1:8080. */
export const DEFAULT_CONFIG: Config = Object.freeze({
  host: '127.0.0.1',
  port: 8080,
  logLevel: 'info',
  embedded: { enabled: true, clusters: ['root'] },
  sources: [],
  cache: { enabled: false, gvks: [], ttl: '2m' },
  store: { eventWindow: 100_000, eventWindowBytes: DEFAULT_EVENT_WINDOW_BYTES },
  watch: { timeoutSeconds: 1800, bookmarkIntervalSeconds: 60, maxBufferedBytes: 16 * 1024 * 1024 },
  limits: { bodyBytes: 3 * 1024 * 1024, maxEventLoopDelayMs: 1000, minResourceVersionWaitMs: 5000 },
  graphql: { websocket: { maxMessageBytes: 128 * 1024, messagesPerSecond: 10, messageBurst: 30, initTimeoutMs: 10_000 } },
  workers: { clusterCachedResources: 2, replication: 2 },
});
