// The checks kube-apiserver makes of how a list's or a watch's options combine: resourceVersionMatch
// and sendInitialEvents mean something only beside certain other options. A combination it refuses
// is 422 Invalid here too, one cause per rule broken, instead of an option quietly ignored.

import type { StatusCause } from '../errors.js';
import { invalidError } from '../apimachinery/invalid-error.js';

/** ListOptionsQuery is what the checks read of a list or watch request. */
export interface ListOptionsQuery {
  readonly watch: boolean;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly continue?: string;
  /** sendInitialEvents: undefined when the request does not name it. */
  readonly sendInitialEvents?: boolean;
}

const EXACT = 'Exact';
const NOT_OLDER_THAN = 'NotOlderThan';

/** checkListOptions throws ListOptions' 422 Invalid when the options break any of the rules. */
export function checkListOptions(q: ListOptionsQuery): void {
  const causes = q.watch ? watchCauses(q) : listCauses(q);
  if (causes.length > 0) throw invalidError('ListOptions', '', causes, 'meta.k8s.io');
}

function listCauses(q: ListOptionsQuery): StatusCause[] {
  const causes: StatusCause[] = [];
  const match = q.resourceVersionMatch ?? '';
  if (match !== '') {
    if ((q.resourceVersion ?? '') === '') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if ((q.continue ?? '') !== '') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== EXACT && match !== NOT_OLDER_THAN) causes.push(notSupported('resourceVersionMatch', match, [EXACT, NOT_OLDER_THAN, '']));
    if (match === EXACT && q.resourceVersion === '0') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (q.sendInitialEvents !== undefined) causes.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return causes;
}

function watchCauses(q: ListOptionsQuery): StatusCause[] {
  const causes: StatusCause[] = [];
  const match = q.resourceVersionMatch ?? '';
  if (q.sendInitialEvents !== undefined && match !== NOT_OLDER_THAN) {
    causes.push(forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
  }
  if (match !== '') {
    if (q.sendInitialEvents === undefined) causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== NOT_OLDER_THAN) causes.push(notSupported('resourceVersionMatch', match, [NOT_OLDER_THAN]));
    if ((q.continue ?? '') !== '') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return causes;
}

function forbidden(field: string, message: string): StatusCause {
  return { reason: 'FieldValueForbidden', field, message: `Forbidden: ${message}` };
}

function notSupported(field: string, value: string, supported: readonly string[]): StatusCause {
  const values = supported.map((s) => JSON.stringify(s)).join(', ');
  return { reason: 'FieldValueNotSupported', field, message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${values}` };
}
