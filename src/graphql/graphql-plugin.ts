// The GraphQL facade (DESIGN.md §3.7): mercurius at /graphql with GraphiQL at /graphiql and
// subscriptions over WebSocket (graphql-transport-ws) on the same path. The SDL in
// schema/cachegate.graphql is the one source of truth, read at startup; resolvers.ts and
// loaders.ts answer queries and subscriptions through the read model only, and mutations.ts
// answers mutations through the one write service (REST's too). Every document is checked
// against the depth and cost limits (query-limits.ts) before it runs: queries and mutations by
// mercurius' validation, subscriptions (which mercurius does not validate) in a
// preSubscriptionExecution hook.
//
// The plugin is encapsulated: mercurius, its error handler and @fastify/websocket stay inside it.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ASTVisitor, DocumentNode, GraphQLSchema, ValidationContext, ValidationRule } from 'graphql';
import mercurius from 'mercurius';
import type { MercuriusCommonOptions } from 'mercurius';
import { authenticateConnection } from '../auth/connection-credentials.js';
import { principalOf } from '../auth/request-principal.js';
import type { TokenAuthenticator } from '../auth/token-authenticator.js';
import { graphqlAccess } from './graphql-access.js';
import type { Registry } from 'prom-client';
import type { ReadModel } from '../read/read-model.js';
import type { WriteService } from '../write/write-service.js';
import { EventStreams } from './event-streams.js';
import { formatGraphqlErrors } from './format-graphql-errors.js';
import { graphqlJs } from './graphql-runtime.js';
import { guardGraphqlRequest } from './http-request-guard.js';
import { createLoaders } from './loaders.js';
import { DEFAULT_QUERY_LIMITS, queryLimitRules } from './query-limits.js';
import type { QueryLimits } from './query-limits.js';
import { createResolvers } from './resolvers.js';

/** SCHEMA_FILE is the SDL, relative to this module in src/graphql/ and in the built dist/graphql/. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema/cachegate.graphql', import.meta.url));

/**
 * MAX_DOCUMENT_TOKENS bounds a document's size in GraphQL tokens (GRAPHQL_PARSE_FAILED past it).
 * mercurius keeps parsed documents, rejected ones too, in LRU caches keyed by the query text, and a
 * parsed document costs about 0.5 KB per token: without a bound, distinct huge queries (the HTTP
 * fuzz test sent 3000-alias ones) held hundreds of MB. Introspection is under 200 tokens.
 */
export const MAX_DOCUMENT_TOKENS = 2000;

/** DOCUMENT_CACHE_SIZE is mercurius' parse cache size (it keeps up to twice that, twice: valid and rejected). */
const DOCUMENT_CACHE_SIZE = 64;

/** DEFAULT_SUBSCRIPTION_QUEUE is how many events a subscriber may fall behind before it is cut off. */
export const DEFAULT_SUBSCRIPTION_QUEUE = 1000;

/** GraphqlPluginOptions configure the GraphQL facade. */
export interface GraphqlPluginOptions {
  readonly read: ReadModel;
  /** write performs the mutations; without it every mutation answers METHOD_NOT_ALLOWED. */
  readonly write?: WriteService;
  /** registry receives the cachegate_graphql_subscriptions gauge. */
  readonly registry?: Registry;
  readonly limits?: Partial<QueryLimits>;
  /** subscriptionQueue bounds each subscriber's queue of undelivered events (default 1000). */
  readonly subscriptionQueue?: number;
  /** schemaFile overrides the SDL's location (default SCHEMA_FILE). */
  readonly schemaFile?: string;
  /** graphiql serves GraphiQL at /graphiql (default true). */
  readonly graphiql?: boolean;
  /**
   * authenticator turns auth on (issue 7): every operation needs a principal, from the request's
   * bearer token (the app's auth hook) or a subscription's connection_init payload.
   */
  readonly authenticator?: TokenAuthenticator;
}

/** graphqlPlugin registers the GraphQL facade on a fastify instance. */
export async function graphqlPlugin(fastify: FastifyInstance, options: GraphqlPluginOptions): Promise<void> {
  const limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
  const rules = queryLimitRules(limits);
  const events = new EventStreams({
    read: options.read,
    queueSize: options.subscriptionQueue ?? DEFAULT_SUBSCRIPTION_QUEUE,
    ...(options.registry ? { registry: options.registry } : {}),
  });
  const access = graphqlAccess(options.read, options.write, options.authenticator !== undefined);
  // Added before mercurius so that its routes inherit the hook.
  fastify.addHook('preHandler', guardGraphqlRequest);
  await fastify.register(mercurius, {
    schema: await readFile(options.schemaFile ?? SCHEMA_FILE, 'utf8'),
    resolvers: createResolvers({ read: options.read, limits, events, access, ...(options.write ? { write: options.write } : {}) }),
    loaders: createLoaders(options.read, access),
    path: '/graphql',
    graphiql: options.graphiql ?? true,
    validationRules: [...rules, noSubscriptionOverHttp],
    graphql: { parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS } },
    cache: DOCUMENT_CACHE_SIZE,
    errorFormatter: formatGraphqlErrors,
    context: (request) => ({ principal: principalOf(request) }),
    subscription: subscriptionOptions(options.authenticator),
  });
  fastify.graphql.addHook('preSubscriptionExecution', (schema, document) => {
    validateSubscription(schema, document, rules);
  });
  // Watches end before the server closes: each open subscription completes.
  fastify.addHook('preClose', async () => {
    events.closeAll();
  });
}

/**
 * subscriptionOptions: a connection's principal is its upgrade request's (bearer header), unless
 * connection_init names a token, which then decides; an unknown token refuses the connection.
 */
function subscriptionOptions(authenticator: TokenAuthenticator | undefined): MercuriusCommonOptions['subscription'] {
  return {
    keepAlive: 30_000,
    context: (_socket, request) => ({ principal: principalOf(request) }),
    ...(authenticator === undefined ? {} : {
      onConnect: (data: { payload?: unknown }) => {
        const auth = authenticateConnection(authenticator, data.payload);
        if (auth === 'refused') return false;
        return auth === 'no-token' ? true : { principal: auth.principal };
      },
    }),
  };
}

/** validateSubscription runs the standard and the limit rules on a subscription document. */
function validateSubscription(schema: GraphQLSchema, document: DocumentNode, rules: readonly ValidationRule[]): void {
  const { GraphQLError, specifiedRules, validate } = graphqlJs;
  const [error] = validate(schema, document, [...specifiedRules, ...rules]);
  if (!error) return;
  if (typeof error.extensions['code'] === 'string') throw error;
  throw new GraphQLError(error.message, { nodes: error.nodes ?? null, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
}

/**
 * noSubscriptionOverHttp refuses a subscription sent as a plain HTTP request (mercurius validates
 * only those; WebSocket subscriptions go through validateSubscription): executed as a query it
 * would resolve an event that never came and fail as an internal error.
 */
function noSubscriptionOverHttp(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation !== 'subscription') return;
      context.reportError(new graphqlJs.GraphQLError(
        'subscriptions are served over WebSocket (graphql-transport-ws) at /graphql, not over plain HTTP',
        { nodes: [operation], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
      ));
    },
  };
}
