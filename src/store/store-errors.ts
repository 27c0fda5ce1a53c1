// Kubernetes-worded errors of the store. Messages follow the apiserver's wording so clients that
// match on text (kubectl, controller-runtime logs) read the same thing they would from a real cluster.

import { AppError } from '../errors.js';

/** qualifiedResource writes `<resource>` for the core group and `<resource>.<group>` otherwise. */
export function qualifiedResource(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

/** notFound is the 404 for a missing object. */
export function notFound(group: string, resource: string, name: string): AppError {
  return new AppError('NotFound', `${qualifiedResource(group, resource)} "${name}" not found`, {
    name,
    group,
    kind: resource,
  });
}

/** alreadyExists is the 409 for a create on a taken name. */
export function alreadyExists(group: string, resource: string, name: string): AppError {
  return new AppError('AlreadyExists', `${qualifiedResource(group, resource)} "${name}" already exists`, {
    name,
    group,
    kind: resource,
  });
}

/** conflict is the 409 for a failed optimistic-concurrency check; reason defaults to the stale-version text. */
export function conflict(group: string, resource: string, name: string, reason?: string): AppError {
  const why = reason ?? 'the object has been modified; please apply your changes to the latest version and try again';
  return new AppError('Conflict', `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} "${name}": ${why}`, {
    name,
    group,
    kind: resource,
  });
}

/** nameRequired is the 422 for an object with neither name nor generateName. */
export function nameRequired(group: string, resource: string): AppError {
  const message = 'Required value: name or generateName is required';
  return new AppError('Invalid', `${qualifiedResource(group, resource)} "" is invalid: metadata.name: ${message}`, {
    name: '',
    group,
    kind: resource,
    causes: [{ reason: 'FieldValueRequired', message, field: 'metadata.name' }],
  });
}

/** badContinue is the 400 for a continue token this store cannot read. */
export function badContinue(reason: string): AppError {
  return new AppError('BadRequest', `continue key is not valid: ${reason}`);
}

/** expiredContinue is the 410 for a continue token whose snapshot is gone. */
export function expiredContinue(): AppError {
  return new AppError(
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
  );
}

/** RESOURCE_VERSION_TOO_LARGE is the cause type kube-apiserver gives a resourceVersion it has not reached. */
export const RESOURCE_VERSION_TOO_LARGE = 'ResourceVersionTooLarge';

/**
 * tooLargeResourceVersion is kube-apiserver's answer to a list or watch from a resourceVersion
 * newer than its own: 504 Timeout with cause ResourceVersionTooLarge. A client that holds such a
 * version is following another incarnation of this store (it restarted and counts again from 1),
 * so waiting would deliver nothing; clients such as client-go re-list on it.
 */
export function tooLargeResourceVersion(requested: number, current: number): AppError {
  return new AppError('Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: RESOURCE_VERSION_TOO_LARGE, message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}
