// The GraphQL facade: mercurius at /graphql with GraphiQL at /graphiql and
// subscriptions over WebSocket (graphql-transport-ws) on the same path. The SDL in
// schema/cachegate.graphql is the one source of truth, read at startup; resolvers.ts and
// loaders.ts answer queries and subscriptions through the read model only, and mutations.ts
// answers mutations through the one write service (REST's too). Every document, on every
// transport, is checked against the same limits before it runs: its size in bytes and tokens
// before it is parsed (document-source.ts: the HTTP guard for GET and POST, the subscription gate
// for WebSocket messages), then repeated fields before validation (repeated-fields.ts), then
// depth, cost and aliases (query-limits.ts): queries and mutations in mercurius' preValidation
// hook and validation, subscriptions (which mercurius does not validate) in a
// preSubscriptionExecution hook. A WebSocket must authenticate in connection_init before it may
// send a document, within per-connection limits on message size and rate (subscription-gate.ts).
//
// Operations are counted once they pass validation (preExecution, preSubscriptionExecution), and
// errors once each as they leave: in the HTTP answer (preSerialization), in a subscription's event
// (the error formatter), or as the error a subscription fails with (its validation, or the error
// its stream ends with: mercurius sends those without the formatter).
//
// A query of one `object(...)` lookup with literal arguments, the hottest request, is answered
// before mercurius from a plan kept per document text, once that document has passed the same
// checks (point-read-plan.ts); everything else, failures included, is mercurius'.
//
// The plugin is encapsulated: mercurius, its error handler and @fastify/websocket stay inside it.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ASTVisitor, DocumentNode, GraphQLSchema, ValidationContext, ValidationRule } from 'graphql';
import mercurius from 'mercurius';
import type { MercuriusCommonOptions } from 'mercurius';
import { principalOf } from '../auth/request-principal.js';
import type { TokenAuthenticator } from '../auth/token-authenticator.js';
import { graphqlAccess } from './graphql-access.js';
import type { ReadModel } from '../read/read-model.js';
import type { WriteService } from '../write/write-service.js';
import { JsonText } from '../apimachinery/json-text.js';
import { answerText, dataOnlyAnswer } from './answer-text.js';
import { EventStreams } from './event-streams.js';
import { formatGraphqlErrors } from './format-graphql-errors.js';
import { graphiqlPage } from './graphiql-page.js';
import { NO_COUNTERS, countAnswerErrors, countErrors, countThrown, countingStreamErrors, graphqlJs, operationTypeOf } from './graphql-runtime.js';
import type { GraphqlCounters, OpenStreamsGauge } from '../metrics/metrics.js';
import { graphqlRequestGuard } from './http-request-guard.js';
import { createLoaders } from './loaders.js';
import { PointReadPlans, pointReadHook } from './point-read-plan.js';
import { DEFAULT_QUERY_LIMITS, queryLimitRules } from './query-limits.js';
import type { QueryLimits } from './query-limits.js';
import { repeatedFieldsError } from './repeated-fields.js';
import { createResolvers } from './resolvers.js';
import { DEFAULT_CONNECTION_LIMITS, SubscriptionGate } from './subscription-gate.js';
import type { ConnectionLimits } from './subscription-gate.js';
import { GRAPHQL_TRANSPORT_WS, registerSubscriptionTransport } from './subscription-transport.js';

/** SCHEMA_FILE is the SDL, relative to this module in src/graphql/ and in the built dist/graphql/. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema/cachegate.graphql', import.meta.url));

/** DOCUMENT_CACHE_SIZE is mercurius' parse cache size (it keeps up to twice that, twice: valid and rejected). */
const DOCUMENT_CACHE_SIZE = 64;

/** DEFAULT_SUBSCRIPTION_QUEUE is how many events a subscriber may fall behind before it is cut off. */
export const DEFAULT_SUBSCRIPTION_QUEUE = 1000;

/** GraphqlPluginOptions configure the GraphQL facade. */
export interface GraphqlPluginOptions {
  readonly read: ReadModel;
  /** write performs the mutations; without it every mutation answers METHOD_NOT_ALLOWED. */
  readonly write?: WriteService;
  /** subscriptionsGauge counts the open subscriptions (the app's cachegate_graphql_subscriptions gauge). */
  readonly subscriptionsGauge?: OpenStreamsGauge;
  /** counters count operations, errors and delivered subscription events (the app's metrics); none counts nothing. */
  readonly counters?: GraphqlCounters;
  readonly limits?: Partial<QueryLimits>;
  /** websocket bounds each WebSocket connection's messages (default DEFAULT_CONNECTION_LIMITS). */
  readonly websocket?: Partial<ConnectionLimits>;
  /** subscriptionQueue bounds each subscriber's queue of undelivered events (default 1000). */
  readonly subscriptionQueue?: number;
  /** subscriptionQueueBytes bounds the estimated bytes of that queue (the config's `watch.maxBufferedBytes`). */
  readonly subscriptionQueueBytes?: number;
  /** json keeps the JSON text of frozen objects (share the REST facade's, so one object is serialised once); default a new one. */
  readonly json?: JsonText;
  /** schemaFile overrides the SDL's location (default SCHEMA_FILE). */
  readonly schemaFile?: string;
  /** graphiql serves GraphiQL at /graphiql (default true). */
  readonly graphiql?: boolean;
  /**
   * authenticator turns auth on: every operation needs a principal, from the request's
   * bearer token (the app's auth hook) or a subscription's connection_init payload.
   */
  readonly authenticator?: TokenAuthenticator;
}

/** graphqlPlugin registers the GraphQL facade on a fastify instance. */
export async function graphqlPlugin(fastify: FastifyInstance, options: GraphqlPluginOptions): Promise<void> {
  const limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
  const rules = queryLimitRules(limits);
  // What mercurius validates HTTP documents with, beyond graphql-js' own rules; a planned point read is checked against the same.
  const httpRules = [...rules, noSubscriptionOverHttp];
  const counters = options.counters ?? NO_COUNTERS;
  const events = new EventStreams({
    read: options.read,
    queueSize: options.subscriptionQueue ?? DEFAULT_SUBSCRIPTION_QUEUE,
    ...(options.subscriptionQueueBytes ? { queueBytes: options.subscriptionQueueBytes } : {}),
    ...(options.subscriptionsGauge ? { gauge: options.subscriptionsGauge } : {}),
  });
  const access = graphqlAccess(options.read, options.write, options.authenticator !== undefined);
  // Added before mercurius so that its routes inherit the hooks and it uses this WebSocket server.
  fastify.addHook('preHandler', graphqlRequestGuard(limits));
  const json = options.json ?? new JsonText();
  fastify.addHook('preSerialization', (req, reply, payload: unknown, done) => {
    if (req.routeOptions.url === '/graphql') {
      countAnswerErrors(payload, counters);
      const data = dataOnlyAnswer(payload);
      if (data !== undefined) reply.serializer(() => answerText(data, json));
    }
    done(null, payload);
  });
  // After the guard and before mercurius: the one-lookup queries it has a plan for (point-read-plan.ts).
  // The schema is mercurius' (read when the first request comes, once mercurius is registered).
  const plans = new PointReadPlans({
    objectField: () => fastify.graphql.schema.getQueryType()?.getFields()['object'],
    accepts: (document) => repeatedFieldsError(document, limits.maxFieldRepeats) === undefined
      && graphqlJs.validate(fastify.graphql.schema, document, [...graphqlJs.specifiedRules, ...httpRules]).length === 0,
    maxTokens: limits.maxTokens,
  });
  fastify.addHook('preHandler', pointReadHook({ plans, access, json, counters }));
  const websocket: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.websocket };
  const gate = new SubscriptionGate({ limits: websocket, documentLimits: limits, ...(options.authenticator ? { authenticator: options.authenticator } : {}) });
  await registerSubscriptionTransport(fastify, gate, websocket.maxMessageBytes);
  await fastify.register(mercurius, {
    schema: await readFile(options.schemaFile ?? SCHEMA_FILE, 'utf8'),
    resolvers: countingStreamErrors(createResolvers({ read: options.read, limits, events, access, ...(options.write ? { write: options.write } : {}) }), counters),
    loaders: createLoaders(options.read, access),
    path: '/graphql',
    graphiql: false, // mercurius' GraphiQL loads its files from a CDN; graphiql-page.ts serves them itself
    validationRules: httpRules,
    // The guard and the gate count tokens before this parse; the bound here is the same limit.
    graphql: { parseOptions: { maxTokens: limits.maxTokens } },
    cache: DOCUMENT_CACHE_SIZE,
    // A document seen once before runs as a compiled plan (graphql-jit) kept beside its parse:
    // about a fifth less CPU per point read. Its errors go through the same formatter.
    jit: 1,
    errorFormatter: (execution, context) => {
      const formatted = formatGraphqlErrors(execution, context);
      // HTTP answers are counted as they are serialised; a subscription's event has no reply.
      if (context.reply === undefined) countErrors(formatted.response.errors, counters);
      return formatted;
    },
    context: (request) => ({ principal: principalOf(request) }),
    subscription: subscriptionOptions(gate),
  });
  if (options.graphiql ?? true) await fastify.register(graphiqlPage);
  fastify.graphql.addHook('preValidation', (_schema, document) => {
    refuseRepeatedFields(document, limits);
  });
  fastify.graphql.addHook('preExecution', (_schema, document, context) => {
    counters.operation(operationTypeOf(document, context));
  });
  fastify.graphql.addHook('preSubscriptionExecution', (schema, document) => {
    try {
      refuseRepeatedFields(document, limits);
      validateSubscription(schema, document, rules);
    } catch (err) {
      countThrown(err, counters);
      throw err;
    }
    counters.operation('subscription');
  });
  fastify.graphql.addHook('onSubscriptionResolution', () => {
    counters.delivered();
  });
  // Watches end before the server closes: each open subscription completes.
  fastify.addHook('preClose', async () => {
    events.closeAll();
  });
}

/**
 * subscriptionOptions: a connection's principal is the one the gate found in its connection_init
 * (or its upgrade request's header); mercurius sees only connections the gate has admitted. A
 * client offering no subprotocol is spoken to in graphql-transport-ws, the one the gate knows.
 */
function subscriptionOptions(gate: SubscriptionGate): MercuriusCommonOptions['subscription'] {
  return {
    keepAlive: 30_000,
    wsDefaultSubprotocol: GRAPHQL_TRANSPORT_WS,
    context: (socket) => ({ principal: gate.principalOf(socket) }),
  };
}

/** refuseRepeatedFields throws QUERY_TOO_MANY_REPEATED_FIELDS before validation would compare the copies pairwise. */
function refuseRepeatedFields(document: DocumentNode, limits: QueryLimits): void {
  const error = repeatedFieldsError(document, limits.maxFieldRepeats);
  if (error !== undefined) throw error;
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
