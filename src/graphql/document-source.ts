// The size limits of a GraphQL document, checked on its text before anything parses it, by every
// transport: the HTTP guard (GET and POST, http-request-guard.ts) and the WebSocket gate
// (subscription-gate.ts) call checkDocumentSource, so a document refused over one is refused over
// the others with the same extensions.code. Parsing costs CPU and memory in proportion to the
// tokens; counting them with the lexer alone (no AST) bounds both before the parser runs, and the
// parser would stop at the same count (graphql-js' maxTokens counts the same tokens: no comments).

import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { ERROR_TABLE } from '../errors.js';
import { graphqlJs } from './graphql-runtime.js';
import type { QueryLimits } from './query-limits.js';

/** DocumentRejection is why a document was refused: its HTTP status and its GraphQL error. */
export interface DocumentRejection {
  readonly httpStatus: number;
  readonly error: GraphQLFormattedError;
}

/** checkDocumentSource refuses a document over maxDocumentBytes or maxTokens, or one the lexer rejects. */
export function checkDocumentSource(source: string, limits: Pick<QueryLimits, 'maxDocumentBytes' | 'maxTokens'>): DocumentRejection | undefined {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > limits.maxDocumentBytes) {
    const meaning = ERROR_TABLE.RequestEntityTooLarge;
    return {
      httpStatus: meaning.httpStatus,
      error: {
        message: `this document is ${bytes} bytes; the limit is ${limits.maxDocumentBytes}`,
        extensions: { code: meaning.graphqlCode, reason: 'RequestEntityTooLarge', limit: limits.maxDocumentBytes },
      },
    };
  }
  const lexError = tokenLimitError(source, limits.maxTokens);
  if (lexError === undefined) return undefined;
  return { httpStatus: 400, error: { ...lexError.toJSON(), extensions: { code: 'GRAPHQL_PARSE_FAILED' } } };
}

/** tokenLimitError lexes source up to maxTokens + 1 tokens: the lexer's syntax error, a too-many-tokens error, or undefined. */
function tokenLimitError(source: string, maxTokens: number): GraphQLError | undefined {
  const { GraphQLError, Lexer, Source, TokenKind } = graphqlJs;
  const lexer = new Lexer(new Source(source));
  try {
    for (let tokens = 0; lexer.advance().kind !== TokenKind.EOF;) {
      if (++tokens > maxTokens) return new GraphQLError(`Syntax Error: Document contains more than ${maxTokens} tokens. Parsing aborted.`);
    }
  } catch (err) {
    if (err instanceof GraphQLError) return err;
    throw err;
  }
  return undefined;
}
