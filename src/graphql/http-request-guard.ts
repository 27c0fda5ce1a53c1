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

/**
 * ACCEPTED_DOCUMENTS and ACCEPTED_DOCUMENT_CHARS bound the documents a guard remembers as passing
 * the checks on their text: clients send the same few documents again and again, and lexing one
 * costs as much as a quarter of a point read. At most 256 of up to 4,096 characters (about 3 MB);
 * the memory is dropped whole when full.
 */
const ACCEPTED_DOCUMENTS = 256;
const ACCEPTED_DOCUMENT_CHARS = 4096;

/** graphqlRequestGuard makes the preHandler hook that answers 4xx for the requests described above. */
export function graphqlRequestGuard(limits: Pick<QueryLimits, 'maxDocumentBytes' | 'maxTokens'>): preHandlerAsyncHookHandler {
  const accepted = new Set<string>();
  const documentProblem = (query: unknown): DocumentProblem | undefined => {
    if (typeof query !== 'string' || accepted.has(query)) return undefined;
    const problem = queryProblem(query);
    if (problem !== undefined) return { httpStatus: 400, error: { message: problem.message, extensions: { code: problem.code } } };
    const rejection = checkDocumentSource(query, limits);
    if (rejection === undefined && query.length <= ACCEPTED_DOCUMENT_CHARS) {
      if (accepted.size >= ACCEPTED_DOCUMENTS) accepted.clear();
      accepted.add(query);
    }
    return rejection;
  };
  return async function guardGraphqlRequest(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const input = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | string | null | undefined;
    const query = typeof input === 'string' ? input : input?.['query'];
    const problem = documentProblem(query) ?? (req.method === 'GET' && typeof input === 'object' ? variablesProblem(input?.['variables']) : undefined);
    if (problem !== undefined) return refuse(reply, problem.httpStatus, problem.error);
  };
}

/** DocumentProblem is why a request is refused: its status and its GraphQL error. */
interface DocumentProblem {
  readonly httpStatus: number;
  readonly error: GraphQLFormattedError;
}

async function refuse(reply: FastifyReply, status: number, error: GraphQLFormattedError): Promise<void> {
  const body: GraphqlRequestError = { errors: [error] };
  await reply.code(status).header('content-type', 'application/json').send(body);
}

function queryProblem(query: unknown): { message: string; code: string } | undefined {
  if (typeof query !== 'string' || !parsesAsJson(query)) return undefined;
  return { message: 'Syntax Error: the query is not a GraphQL document', code: 'GRAPHQL_PARSE_FAILED' };
}

function variablesProblem(variables: unknown): DocumentProblem | undefined {
  if (variables === undefined) return undefined;
  // mercurius skips decoding an empty value and hands '' on as the variables.
  if (variables === '') return notAnObject();
  let decoded: unknown;
  try {
    decoded = typeof variables === 'string' ? JSON.parse(variables) : variables;
  } catch {
    return undefined; // mercurius answers unparsable variables with 400 itself
  }
  if (decoded === null || typeof decoded === 'object') return undefined;
  return notAnObject();
}

function notAnObject(): DocumentProblem {
  return { httpStatus: 400, error: { message: 'variables must be a JSON object', extensions: { code: 'BAD_REQUEST' } } };
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
