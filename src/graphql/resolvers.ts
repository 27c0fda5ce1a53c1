// Resolvers of schema/cachegate.graphql: queries and subscriptions over the read model, mutations
// over the write service (mutations.ts). Fields not listed here (and not in loaders.ts) are read
// straight from the object the parent resolved (PROPERTY_FIELDS): CachedObjects are the cache's
// own objects, so apiVersion, kind, metadata and spec.raw are properties, as are the read model's
// SchemaSummary and ReadEvent fields.

import type { GraphQLResolveInfo } from 'graphql';
import type { IResolvers } from 'mercurius';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { cachedObjectOrigin } from '../cachedobjects/cached-object-origin.js';
import type { CachedObjectFilter, ReadEvent, ReadModel, SchemaSummary } from '../read/read-model.js';
import { readWaitOf } from './read-wait-args.js';
import type { ReadWaitArgs } from './read-wait-args.js';
import type { WriteService } from '../write/write-service.js';
import { listConnection } from './connection.js';
import type { PageArgs } from './connection.js';
import type { EventStreams } from './event-streams.js';
import { graphqlAccess } from './graphql-access.js';
import type { GraphqlAccess } from './graphql-access.js';
import { JSON_SCALAR } from './json-scalar.js';
import { startSubscription } from './subscription-start.js';
import { createMutationResolvers } from './mutations.js';
import type { QueryLimits } from './query-limits.js';

/** PROPERTY_FIELDS lists, per SDL type, the fields resolved as plain properties of the parent value. */
export const PROPERTY_FIELDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  CachedObject: ['apiVersion', 'kind', 'metadata', 'spec'],
  ObjectMeta: ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'labels', 'annotations'],
  CachedObjectSpec: ['raw'],
  CachedObjectConnection: ['edges', 'pageInfo', 'totalCount'],
  CachedObjectEdge: ['node', 'cursor'],
  PageInfo: ['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor'],
  Schema: ['name', 'group', 'version', 'resource', 'clusters', 'count'],
  SchemaCluster: ['shard', 'cluster', 'count'],
  CachedObjectEvent: ['type', 'object'],
});

/** ResolverDeps are what the resolvers read from (and write through). */
export interface ResolverDeps {
  readonly read: ReadModel;
  readonly limits: QueryLimits;
  readonly events: EventStreams;
  /** write performs the mutations; without it every mutation is METHOD_NOT_ALLOWED. */
  readonly write?: WriteService;
  /** access narrows read and write to each operation's principal (default: no narrowing). */
  readonly access?: GraphqlAccess;
}

/** FilterInput is CachedObjectFilter as GraphQL passes it: fields may be null. */
type FilterInput = { readonly [K in keyof CachedObjectFilter]?: string | null };



/** Where picks a lookup's cluster and shard. */
interface WhereArgs {
  readonly cluster?: string | null;
  readonly shard?: string | null;
}

/** createResolvers makes the resolvers over one read model and (optionally) one write service. */
export function createResolvers({ read, limits, events, write, access = graphqlAccess(read, write, false) }: ResolverDeps): IResolvers {
  return {
    JSON: JSON_SCALAR,
    Query: {
      cachedObject: async (_root: unknown, args: { name: string } & WhereArgs & ReadWaitArgs, context: unknown) => {
        const scoped = access.read(context);
        await scoped.waitForRead(readWaitOf(args));
        return scoped.getCachedObject(args.name, withoutNulls(args, ['cluster', 'shard']));
      },
      cachedObjects: async (_root: unknown, args: { filter?: FilterInput | null } & PageArgs & ReadWaitArgs, context: unknown) => {
        const scoped = access.read(context);
        await scoped.waitForRead(readWaitOf(args));
        return listConnection(scoped, filterOf(args.filter), args, limits);
      },
      schemas: (_root: unknown, _args: unknown, context: unknown) => access.read(context).schemas(),
      clusterCachedResources: (_root: unknown, _args: unknown, context: unknown) => access.read(context).clusterCachedResources(),
    },
    Mutation: createMutationResolvers((context) => access.write(context)),
    CachedObject: {
      object: (cachedObject: KubeObject) => (cachedObject['spec'] as { raw?: unknown } | undefined)?.raw,
      shard: (cachedObject: KubeObject) => cachedObjectOrigin(cachedObject)?.shard ?? '',
      cluster: (cachedObject: KubeObject) => cachedObjectOrigin(cachedObject)?.cluster ?? '',
    },
    Schema: {
      objects: (schema: SchemaSummary, args: PageArgs, context: unknown) => listConnection(access.read(context), { schema: schema.name }, args, limits),
    },
    Subscription: {
      cachedObjectEvents: {
        subscribe: (_root: unknown, args: { filter?: FilterInput | null }, context: unknown, info: GraphQLResolveInfo) =>
          startSubscription(async () => events.stream(filterOf(args.filter), access.read(context)), context, info),
        resolve: (event: ReadEvent) => event,
      },
    },
  };
}

/** filterOf drops the filter fields given as null. */
function filterOf(input: FilterInput | null | undefined): CachedObjectFilter {
  const filter: Record<string, string> = {};
  for (const [key, value] of Object.entries(input ?? {})) {
    if (typeof value === 'string') filter[key] = value;
  }
  return filter;
}

function withoutNulls<K extends string>(args: Partial<Record<K, string | null>>, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}
