// Checks on GraphQL-over-HTTP requests that mercurius does not make. The document's size limits
// (bytes and tokens, document-source.ts) are checked here before mercurius parses it, as the
// WebSocket gate checks them for subscriptions. mercurius reads a `query`
// that fails to parse as GraphQL as a JSON-encoded AST (so `query=6` or `{"query":"[]"}` reaches
// graphql-js' validator as a number or an array), and passes GET `variables` that decode to a
// non-object (`variables=false`) to graphql-js, which asserts: both were 500s for a client's mistake.
// No string is both a GraphQL document and JSON (a selection needs a bare field name), so refusing
// JSON-parsable queries refuses no valid document.

import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { checkDocumentSource } from './document-source.js';
import type { QueryLimits } from './query-limits.js';

/** GraphqlRequestError is the body of a refused request, shaped as GraphQL over HTTP errors. */
interface GraphqlRequestError {
  readonly errors: readonly GraphQLFormattedError[];
}

/** graphqlRequestGuard makes the preHandler hook that answers 4xx for the requests described above. */
export function graphqlRequestGuard(limits: Pick<QueryLimits, 'maxDocumentBytes' | 'maxTokens'>): preHandlerAsyncHookHandler {
  return async function guardGraphqlRequest(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const input = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | string | null | undefined;
    const query = typeof input === 'string' ? input : input?.['query'];
    const problem = queryProblem(query) ?? (req.method === 'GET' && typeof input === 'object' ? variablesProblem(input?.['variables']) : undefined);
    if (problem !== undefined) return refuse(reply, 400, { message: problem.message, extensions: { code: problem.code } });
    const rejection = typeof query === 'string' ? checkDocumentSource(query, limits) : undefined;
    if (rejection !== undefined) return refuse(reply, rejection.httpStatus, rejection.error);
  };
}

async function refuse(reply: FastifyReply, status: number, error: GraphQLFormattedError): Promise<void> {
  const body: GraphqlRequestError = { errors: [error] };
  await reply.code(status).header('content-type', 'application/json').send(body);
}

function queryProblem(query: unknown): { message: string; code: string } | undefined {
  if (typeof query !== 'string' || !parsesAsJson(query)) return undefined;
  return { message: 'Syntax Error: the query is not a GraphQL document', code: 'GRAPHQL_PARSE_FAILED' };
}

function variablesProblem(variables: unknown): { message: string; code: string } | undefined {
  if (variables === undefined) return undefined;
  // mercurius skips decoding an empty value and hands '' on as the variables.
  if (variables === '') return { message: 'variables must be a JSON object', code: 'BAD_REQUEST' };
  let decoded: unknown;
  try {
    decoded = typeof variables === 'string' ? JSON.parse(variables) : variables;
  } catch {
    return undefined; // mercurius answers unparsable variables with 400 itself
  }
  if (decoded === null || typeof decoded === 'object') return undefined;
  return { message: 'variables must be a JSON object', code: 'BAD_REQUEST' };
}

function parsesAsJson(text: string): boolean {
  // Only text that can start a JSON value is parsed: a failed JSON.parse throws, which costs more
  // than the rest of a point read, and most documents start with `{ field` or a keyword.
  if (!mayBeJson(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const JSON_START = /^\s*(?:[[\]"\d-]|\{\s*(?:"|\})|(?:true|false|null)\s*$)/;

/** mayBeJson is false for text no JSON value can be: anything but `{"`, `{}`, `[`, a string, a number or a literal. */
function mayBeJson(text: string): boolean {
  return JSON_START.test(text);
}
