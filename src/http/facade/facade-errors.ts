// How the REST facade answers failures: as every route does (sendError: a Kubernetes Status with
// the HTTP code of its reason, from the one error table), after one step of its own: request
// validation failures (the OpenAPI document's parameter schemas) become 400 BadRequest with one
// cause per bad field.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../../apimachinery/status.js';
import { AppError } from '../../errors.js';
import type { StatusCause } from '../../errors.js';

interface ValidationIssue {
  readonly instancePath?: string;
  readonly message?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** sendFacadeError is the facade's error handler: it answers any error as a Status. */
export function sendFacadeError(error: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(fromValidation(error) ?? error, req, reply);
}

// Fastify's validation errors carry the failing keywords; they become causes naming the field.
function fromValidation(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { validation, validationContext } = error as { validation?: unknown; validationContext?: unknown };
  if (!Array.isArray(validation)) return undefined;
  const context = typeof validationContext === 'string' ? validationContext : 'request';
  const causes: StatusCause[] = (validation as ValidationIssue[]).map((issue) => {
    const missing = issue.params?.['missingProperty'];
    const field = [context, ...(issue.instancePath ?? '').split('/').filter(Boolean), ...(typeof missing === 'string' ? [missing] : [])].join('.');
    return { reason: 'FieldValueInvalid', message: issue.message ?? 'is invalid', field };
  });
  return new AppError('BadRequest', error instanceof Error ? error.message : 'invalid request', { causes }, { cause: error });
}
