// Turning the outcome of a delete into what the store answers: a persisted delete into its
// DeleteResult, and an object already gone into a gap in a deleteCollection's result.

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { DeleteResult } from './store.js';

/** settle turns a persisted delete into its result. */
export async function settle(persisted: KubeObject | Promise<KubeObject>, deleted: boolean): Promise<DeleteResult> {
  return { object: await persisted, deleted };
}

/** skipGone drops an object deleted meanwhile from a deleteCollection's result; anything else fails it. */
export function skipGone(err: unknown): undefined {
  if (err instanceof AppError && err.code === 'NotFound') return undefined;
  throw err;
}
