// The graphql-js this folder uses, imported in one place, and the counting of what the GraphQL
// facade runs and returns, which graphql-plugin.ts hooks into mercurius.
//
// mercurius loads graphql's CommonJS build, and so does Node for this import (the package has no
// "exports" map, so "main" wins). vitest would pick the ESM build (the "module" field) — a second
// copy whose instanceof checks reject mercurius's schema — so vitest.config.ts aliases 'graphql'
// to the CommonJS build.
//
// Counting: an operation once it passes validation; an error once, as it leaves, by its
// extensions.code (codes outside the closed set below count as OTHER, so the label stays bounded).

import * as GraphqlJs from 'graphql';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { IResolverOptions, IResolvers, MercuriusContext } from 'mercurius';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { ERROR_TABLE } from '../errors.js';
import type { GraphqlCounters, GraphqlOperationType } from '../metrics/metrics.js';

/** graphqlJs is graphql-js as mercurius loads it. */
export const graphqlJs: typeof GraphqlJs = GraphqlJs;


/** GRAPHQL_ERROR_CODES are every extensions.code this facade gives: the error table's and the GraphQL layer's own. */
const GRAPHQL_ERROR_CODES: ReadonlySet<string> = new Set([
  ...Object.values(ERROR_TABLE).map((meaning) => meaning.graphqlCode),
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'QUERY_TOO_DEEP', 'QUERY_TOO_COSTLY', 'QUERY_TOO_MANY_ALIASES',
  'QUERY_TOO_MANY_REPEATED_FIELDS', 'SLOW_CONSUMER',
]);

/** OTHER_ERROR_CODE counts an error whose code is none of those, so that the label stays bounded. */
const OTHER_ERROR_CODE = 'OTHER';

/** NO_COUNTERS count nothing: a plugin registered without the app's metrics (tests). */
export const NO_COUNTERS: GraphqlCounters = Object.freeze({ operation: () => undefined, error: () => undefined, delivered: () => undefined });

/** countErrors counts each formatted error of a list by its extensions.code. */
export function countErrors(errors: unknown, counters: GraphqlCounters): void {
  if (!Array.isArray(errors)) return;
  for (const error of errors) {
    const code = isPlainObject(error) && isPlainObject(error['extensions']) ? error['extensions']['code'] : undefined;
    counters.error(typeof code === 'string' && GRAPHQL_ERROR_CODES.has(code) ? code : OTHER_ERROR_CODE);
  }
}

/** countAnswerErrors counts the errors of an HTTP answer: one result, or a batch's array of them. */
export function countAnswerErrors(payload: unknown, counters: GraphqlCounters): void {
  if (!Array.isArray(payload)) return countResultErrors(payload, counters);
  for (const result of payload) countResultErrors(result, counters);
}

function countResultErrors(result: unknown, counters: GraphqlCounters): void {
  countErrors(isPlainObject(result) ? result['errors'] : undefined, counters);
}

/** countThrown counts an error a subscription fails with, as mercurius sends it (its own extensions). */
export function countThrown(err: unknown, counters: GraphqlCounters): void {
  countErrors([{ extensions: err instanceof graphqlJs.GraphQLError ? err.extensions : {} }], counters);
}

/** operationTypeOf is the type of the operation a request runs: its document's only one, or the one named. */
export function operationTypeOf(document: DocumentNode, context: MercuriusContext): GraphqlOperationType {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === graphqlJs.Kind.OPERATION_DEFINITION);
  const name = operations.length > 1 ? operationNameOf(context) : undefined;
  const operation = name === undefined ? operations[0] : operations.find((o) => o.name?.value === name);
  return operation?.operation === graphqlJs.OperationTypeNode.MUTATION ? 'mutation' : operation?.operation === graphqlJs.OperationTypeNode.SUBSCRIPTION ? 'subscription' : 'query';
}

/** operationNameOf reads the operationName an HTTP request sent (in a batch, this operation's). */
function operationNameOf(context: MercuriusContext): unknown {
  const request = context.reply?.request;
  const sent: unknown = request?.method === 'GET' ? request.query : request?.body;
  const input: unknown = Array.isArray(sent) ? sent[context.operationId ?? 0] : sent;
  return isPlainObject(input) ? input['operationName'] : undefined;
}

/**
 * countingStreamErrors counts the error a subscription's stream fails with (a refused start, a
 * client cut off as too slow), which mercurius sends without the error formatter. createResolvers
 * gives each Subscription field an object holding its subscribe function.
 */
export function countingStreamErrors(resolvers: IResolvers, counters: GraphqlCounters): IResolvers {
  const fields = resolvers['Subscription'] as Record<string, IResolverOptions> | undefined;
  if (fields === undefined) return resolvers;
  const counted = Object.entries(fields).map(([name, field]) => {
    const { subscribe } = field;
    if (subscribe === undefined) return [name, field];
    return [name, { ...field, subscribe: async (...args: Parameters<typeof subscribe>) => countingFailure(await subscribe(...args), counters) }];
  });
  return { ...resolvers, Subscription: Object.fromEntries(counted) };
}

/** countingFailure passes a stream through, counting the error a read of it rejects with. */
function countingFailure<T>(stream: AsyncIterableIterator<T>, counters: GraphqlCounters): AsyncIterableIterator<T> {
  const counted: AsyncIterableIterator<T> = {
    next: async () => {
      try {
        return await stream.next();
      } catch (err) {
        countThrown(err, counters);
        throw err;
      }
    },
    return: async () => (await stream.return?.()) ?? { value: undefined, done: true },
    [Symbol.asyncIterator]: () => counted,
  };
  return counted;
}
