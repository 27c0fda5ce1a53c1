// An error a reconcile returns when retrying cannot help (the object is invalid, not merely
// unreachable): the controller logs it and forgets the key instead of backing off.

/** TerminalError wraps a reconcile failure that must not be retried. */
export class TerminalError extends Error {
  constructor(cause: unknown, message?: string) {
    // An Error cause's message is left out: loggers (pino's err serializer) append the cause
    // chain themselves, and repeating it would read "x: x".
    super(message ?? (cause instanceof Error ? 'terminal error' : `terminal error: ${String(cause)}`), { cause });
    this.name = 'TerminalError';
  }

  /** isTerminal tells whether err is a TerminalError or wraps one in its cause chain. */
  static isTerminal(err: unknown): boolean {
    // Bounded walk: a cause cycle must not hang the worker that asks.
    for (let depth = 0; depth < 16 && err instanceof Error; depth++) {
      if (err instanceof TerminalError) return true;
      err = err.cause;
    }
    return false;
  }
}
