// Running a store write's checks again when a durable backend finds the view they were made
// against stale: the backend judges conflicts, so a write retries rather than fails at once.

import { AppError } from '../errors.js';
import { StaleView } from './committer.js';

/** STALE_VIEW_ATTEMPTS bounds how often a write is checked again after its view proved stale. */
const STALE_VIEW_ATTEMPTS = 64;

/**
 * checkedWrite runs a write's checks again while the committer finds the view of its key stale.
 * It never throws: a write's promise rejects. Without a committer a write is done when attempt
 * returns, and a sync's writes then cost one settled promise each, not an async frame (nor the
 * extra turn an async caller returning this promise would take).
 */
export function checkedWrite<T>(attempt: () => T | Promise<T>): Promise<T> {
  try {
    const result = attempt();
    return result instanceof Promise ? result.catch((err: unknown) => retriedWrite(attempt, err)) : Promise.resolve(result);
  } catch (err) {
    return retriedWrite(attempt, err);
  }
}

/** retriedWrite goes on from a first attempt that failed with err: a stale view is tried again, STALE_VIEW_ATTEMPTS attempts in all. */
async function retriedWrite<T>(attempt: () => T | Promise<T>, err: unknown): Promise<T> {
  for (let tried = 1; ; tried++) {
    if (!(err instanceof StaleView) || tried >= STALE_VIEW_ATTEMPTS) throw err instanceof StaleView ? new AppError('Conflict', err.message) : err;
    try {
      return await attempt();
    } catch (next) {
      err = next;
    }
  }
}
