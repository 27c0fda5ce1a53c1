// The Kubernetes Status object (kind Status, apiVersion v1) that the kube-compatible API
// returns for every failure and for deletes. Empty details fields are left out, as Go's
// omitempty does, so responses compare byte-for-byte with a real API server's.

import { ERROR_TABLE } from '../errors.js';
import type { AppError, StatusCause } from '../errors.js';

/** KubeStatusDetails is a Status's details: what object the status is about, and why. */
export interface KubeStatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** KubeStatus is a metav1.Status as serialised on the wire. */
export interface KubeStatus {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Readonly<Record<string, never>>;
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: KubeStatusDetails;
  readonly code?: number;
}

/** statusOf renders an AppError as a failure Status with its HTTP code and reason. */
export function statusOf(err: AppError): KubeStatus {
  // Every ErrorCode is spelled like the Kubernetes StatusReason it stands for.
  const reason: string = err.code;
  const details = compactDetails(err.details);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.message,
    reason,
    ...(details === undefined ? {} : { details }),
    code: ERROR_TABLE[err.code].httpStatus,
  };
}

/** successStatus is the Success Status returned by deletes, with optional details. */
export function successStatus(details?: KubeStatusDetails): KubeStatus {
  const compact = details === undefined ? undefined : compactDetails(details);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(compact === undefined ? {} : { details: compact }),
  };
}

// Keeps only the set fields; undefined when nothing is left.
function compactDetails(details: KubeStatusDetails): KubeStatusDetails | undefined {
  const out: { -readonly [K in keyof KubeStatusDetails]: KubeStatusDetails[K] } = {};
  if (details.name) out.name = details.name;
  if (details.group) out.group = details.group;
  if (details.kind) out.kind = details.kind;
  if (details.uid) out.uid = details.uid;
  if (details.causes !== undefined && details.causes.length > 0) out.causes = details.causes;
  if (details.retryAfterSeconds) out.retryAfterSeconds = details.retryAfterSeconds;
  return Object.keys(out).length === 0 ? undefined : out;
}
