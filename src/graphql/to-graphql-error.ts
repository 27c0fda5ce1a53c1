// From cachegate's AppError to a GraphQL error: extensions.code comes from ERROR_TABLE, the
// message of an internal error is hidden (as REST hides 5xx messages).

import type { GraphQLError } from 'graphql';
import { ERROR_TABLE, toAppError } from '../errors.js';
import type { AppError } from '../errors.js';
import { graphqlJs } from './graphql-runtime.js';

/** HIDDEN_MESSAGE replaces the message of every internal error. */
export const HIDDEN_MESSAGE = 'an internal error occurred';

/** appErrorExtensions are the extensions of an AppError: its GraphQL code, its reason and the useful details. */
export function appErrorExtensions(error: AppError): Record<string, unknown> {
  const extensions: Record<string, unknown> = { code: ERROR_TABLE[error.code].graphqlCode, reason: error.code };
  const { causes, retryAfterSeconds } = error.details;
  if (causes && causes.length > 0) extensions['causes'] = causes;
  if (retryAfterSeconds !== undefined) extensions['retryAfterSeconds'] = retryAfterSeconds;
  return extensions;
}

/**
 * toGraphqlError turns anything thrown into a GraphQLError that carries extensions.code, for the
 * paths where mercurius sends an error without passing it through the error formatter (a
 * subscription that fails to start or ends with an error).
 */
export function toGraphqlError(value: unknown): GraphQLError {
  const { GraphQLError } = graphqlJs;
  if (value instanceof GraphQLError && typeof value.extensions['code'] === 'string') return value;
  const error = toAppError(value instanceof GraphQLError && value.originalError ? value.originalError : value);
  const message = error.code === 'InternalError' ? HIDDEN_MESSAGE : error.message;
  return new GraphQLError(message, { originalError: error, extensions: appErrorExtensions(error) });
}
