// How a subscription that cannot start (a malformed selector, a cluster the caller may not read)
// fails: on its stream's first read rather than in its subscribe resolver. mercurius logs a
// subscribe() that fails at error level, with the error list as the log object (level 50, the
// error under key "0", whoever was at fault), then sends the first error; a stream that fails on
// its first read reaches the client the same way (graphql-transport-ws `error` with that error),
// without that line. The failure is logged here instead, as every error is: under `err`, at info
// for a client's mistake and at error for a server fault.

import type { FastifyBaseLogger } from 'fastify';
import type { GraphQLError, GraphQLResolveInfo } from 'graphql';
import { isAppError } from '../errors.js';
import { graphqlJs } from './graphql-runtime.js';
import { toGraphqlError } from './to-graphql-error.js';

/** startSubscription runs start; if it fails, the stream returned fails with that error when first read. */
export async function startSubscription<T>(start: () => Promise<AsyncIterableIterator<T>>, context: unknown, info: GraphQLResolveInfo): Promise<AsyncIterableIterator<T>> {
  try {
    return await start();
  } catch (err) {
    const error = graphqlJs.locatedError(toGraphqlError(err), info.fieldNodes, graphqlJs.responsePathAsArray(info.path));
    logRefusal(logOf(context), error);
    return failedStream(error);
  }
}

function logRefusal(log: FastifyBaseLogger | undefined, error: GraphQLError): void {
  const cause = error.originalError instanceof graphqlJs.GraphQLError ? error.originalError.originalError : error.originalError;
  const serverFault = !isAppError(cause) || cause.httpStatus >= 500;
  if (serverFault) log?.error({ err: cause ?? error }, 'subscription failed to start');
  else log?.info({ err: cause }, 'subscription refused');
}

/** logOf is the log of the WebSocket's upgrade request, which mercurius puts in a subscription's context. */
function logOf(context: unknown): FastifyBaseLogger | undefined {
  const { request, app } = (context ?? {}) as { request?: { log?: FastifyBaseLogger }; app?: { log?: FastifyBaseLogger } };
  return request?.log ?? app?.log;
}

/** failedStream is a stream whose first read rejects with error and which then ends. */
function failedStream<T>(error: GraphQLError): AsyncIterableIterator<T> {
  let failed = false;
  const stream: AsyncIterableIterator<T> = {
    next: async () => {
      if (failed) return { value: undefined, done: true };
      failed = true;
      throw error;
    },
    return: async () => {
      failed = true;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}
