// Which manager a write is recorded under: the fieldManager query parameter, which apply must
// send, or for an ordinary write the user agent's first word, kube's default
// (`kubectl-edit/v1.32.4 (linux/amd64) kubernetes/…` → `kubectl-edit`).

import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { validateManagedFields } from '../../apimachinery/validate-meta-lists.js';
import type { QueryValue } from '../query-params.js';
import { firstValue } from '../query-params.js';

/** fieldManagerOf reads a write's manager; required (apply) → 400 when absent. */
export function fieldManagerOf(req: FastifyRequest, required: boolean): string {
  const sent = firstValue((req.query as Record<string, QueryValue> | undefined)?.['fieldManager']);
  if (sent === undefined || sent === '') {
    if (required) throw new AppError('BadRequest', 'PATCH requests with apply content type need fieldManager');
    return fromUserAgent(req.headers['user-agent']);
  }
  // The same rule as managedFields[].manager: at most 128 bytes of printable characters.
  const [cause] = validateManagedFields([{ manager: sent, operation: 'Apply' }]);
  if (cause !== undefined) throw new AppError('BadRequest', `invalid fieldManager: ${cause.message}`);
  return sent;
}

function fromUserAgent(userAgent: string | undefined): string {
  const word = (userAgent ?? '').split('/')[0]?.trim() ?? '';
  // Anything a manager may not hold (control characters, over 128 bytes) falls back too.
  if (word === '' || validateManagedFields([{ manager: word, operation: 'Update' }]).length > 0) return 'unknown';
  return word;
}
