// The mercurius error formatter: every error leaves with extensions.code, and the HTTP status
// follows GraphQL over HTTP. A document that cannot run (unparsable, invalid, too deep, too
// costly, bad variables) is a request error: HTTP 400 and no `data`. Errors of resolvers are field
// errors: HTTP 200 with `data` holding what could be resolved. Nothing a client sends yields 500.

import type { ExecutionResult, GraphQLError, FormattedExecutionResult, GraphQLFormattedError } from 'graphql';
import type { MercuriusContext } from 'mercurius';
import { ERROR_TABLE, toAppError } from '../errors.js';
import { graphqlJs } from './graphql-runtime.js';
import { HIDDEN_MESSAGE, appErrorExtensions } from './to-graphql-error.js';

/** FormattedErrors is what mercurius expects back from an error formatter. */
export interface FormattedErrors {
  readonly statusCode: number;
  readonly response: FormattedExecutionResult;
}

/** One error to format, and whether it came out of parsing or validation (before execution). */
interface Pending {
  readonly error: GraphQLError;
  /** rejectedBy is the error that rejected the whole document, when this one is part of it. */
  readonly rejectedBy?: Error;
}

/** formatGraphqlErrors formats the errors of one execution (or of one rejected request). */
export function formatGraphqlErrors(execution: ExecutionResult & { readonly errors: readonly GraphQLError[] }, context: MercuriusContext): FormattedErrors {
  const log = context.reply?.log ?? context.app.log;
  const errors = execution.errors.flatMap(expand).map((pending) => format(pending, (err) => log.error({ err }, 'graphql internal error')));
  if (execution.data !== undefined) return { statusCode: 200, response: { data: execution.data, errors } };
  return { statusCode: requestStatus(execution.errors, errors), response: { errors } };
}

/** expand opens mercurius' validation error, which carries the document's errors in `errors`. */
function expand(error: GraphQLError): Pending[] {
  const rejectedBy = error.originalError;
  const inner = (rejectedBy as { errors?: unknown } | undefined)?.errors;
  if (!rejectedBy || !Array.isArray(inner)) return [{ error }];
  return inner.map((item: unknown) => ({
    error: item instanceof graphqlJs.GraphQLError ? item : new graphqlJs.GraphQLError(item instanceof Error ? item.message : String(item), { originalError: item instanceof Error ? item : undefined }),
    rejectedBy,
  }));
}

/** format gives one error its extensions.code (and hides internal messages). */
function format({ error, rejectedBy }: Pending, logInternal: (err: unknown) => void): GraphQLFormattedError {
  const base = error.toJSON();
  // Compiled queries (mercurius' jit, graphql-jit) build errors whose extensions may be absent.
  const extensions: Readonly<Record<string, unknown>> | undefined = error.extensions;
  if (typeof extensions?.['code'] === 'string') return base;
  const original = error.originalError instanceof graphqlJs.GraphQLError ? error.originalError.originalError : error.originalError;
  if (rejectedBy) {
    if (!original) {
      const code = error.message.startsWith('Syntax Error') ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED';
      return { ...base, extensions: { ...base.extensions, code } };
    }
    return { ...base, extensions: { ...base.extensions, ...appErrorExtensions(toAppError(rejectedBy)) } };
  }
  if (!original && error.path === undefined) {
    // No path: execution never started. Variables that do not fit their types are a validation
    // failure, as when graphql-js checks them before execution (a document's compiled plan checks
    // them itself); anything else (an unknown operationName) is a bad request.
    const code = error.message.startsWith('Variable "$') ? 'GRAPHQL_VALIDATION_FAILED' : ERROR_TABLE.BadRequest.graphqlCode;
    return { ...base, extensions: { ...base.extensions, code } };
  }
  if (!original) {
    // graphql-js' own execution errors (a null for a non-null field): a server bug, message harmless.
    logInternal(error);
    return { ...base, extensions: { ...base.extensions, code: ERROR_TABLE.InternalError.graphqlCode } };
  }
  const appError = toAppError(original);
  if (appError.code === 'InternalError') logInternal(original);
  const message = appError.code === 'InternalError' ? HIDDEN_MESSAGE : appError.message;
  return { ...base, message, extensions: { ...base.extensions, ...appErrorExtensions(appError) } };
}

/** requestStatus is the HTTP status of a request rejected before execution. */
function requestStatus(errors: readonly GraphQLError[], formatted: readonly GraphQLFormattedError[]): number {
  const status = (errors[0]?.originalError as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return status;
  const internal = formatted.every((error) => error.extensions?.['code'] === ERROR_TABLE.InternalError.graphqlCode);
  return internal ? 500 : 400;
}
