// Catching the AppError a synchronous call throws, so a test can assert its code and message.

import { AppError } from '../../src/errors.js';

/** thrown runs fn and returns the AppError it throws; anything else fails the test. */
export function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}
