// The configuration of one cachegate process, as the rest of cachegate receives it: frozen, every
// default filled in, every value parsed (kinds into GroupVersionKinds, durations into
// milliseconds). The types come from the schema (config-schema.ts); only load-config.ts builds one.

import type { Static } from '@sinclair/typebox';
import type { AuthSchema, TokenSchema } from './auth-schema.js';
import type { ConfigSchema, LOG_LEVELS, SourceSchema } from './config-schema.js';
import type { GroupVersionKind } from './gvk.js';

export type { GroupVersionKind } from './gvk.js';

/** Frozen is T with every field and list read-only, as loadConfig freezes it. */
export type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** ConfigFile is a config file once validated, its defaults filled in, nothing parsed yet. */
export type ConfigFile = Static<typeof ConfigSchema>;

/** SourceConfig is one Kubernetes-compatible API server to replicate from. */
export type SourceConfig = Frozen<Static<typeof SourceSchema>>;

/** AccessVerb is what a token may do: read (get, list, watch) and write (every other verb). */
export type AccessVerb = TokenConfig['verbs'][number];

/** TokenConfig is one bearer token and what it may reach (`clusters` absent: every cluster). */
export type TokenConfig = Frozen<Static<typeof TokenSchema>>;

/** RateLimitConfig is each token's token bucket: a sustained rate and a burst. */
export type RateLimitConfig = Frozen<Required<NonNullable<Static<typeof AuthSchema>['rateLimit']>>>;

/** AuthConfig turns authentication on; tokens holds those of `tokensFile` too, once loaded. */
export type AuthConfig = Frozen<Omit<Static<typeof AuthSchema>, 'rateLimit'>> & { readonly rateLimit?: RateLimitConfig };

/** CacheConfig is the overlay cache of read-your-writes (the seed's RootConfig), parsed. */
export interface CacheConfig {
  readonly enabled: boolean;
  /** gvks are the overlaid kinds, the core group as ''. */
  readonly gvks: readonly GroupVersionKind[];
  /** ttlMs is the longest an overlay entry lives (config `ttl`; 0 there means the default). */
  readonly ttlMs: number;
}

/** WebsocketLimits bound each GraphQL WebSocket connection (subscriptions). */
export type WebsocketLimits = Config['graphql']['websocket'];

/** LogLevel is one of pino's levels. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Config is the whole, validated configuration; auth absent = no authentication. */
export type Config = Frozen<Omit<ConfigFile, 'cache' | 'auth'>> & {
  readonly cache: CacheConfig;
  readonly auth?: AuthConfig;
};
