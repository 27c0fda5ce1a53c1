// Every unary call to etcd goes through EtcdCaller: it gives the call a deadline, so nothing waits
// forever for a member that does not answer; it retries a read on another member, since a read can
// be sent any number of times; it retries a write only when the error proves etcd never saw it,
// since a transaction whose answer was lost may have been applied; and it turns what failed into
// an AppError, so no raw gRPC error leaves the backend.

import { isBrokenCircuitError } from 'cockatiel';
import { ClientClosedError, isRecoverableError } from 'etcd3';
import { AppError } from '../../errors.js';
import type { Reachability } from './etcd-reachability.js';

/** EtcdCallOptions are the gRPC call options of one attempt: its deadline (ms since the epoch). */
export interface EtcdCallOptions {
  readonly deadline: number;
}

/** EtcdCall is one attempt of a call, given the options it must be sent with. */
export type EtcdCall<T> = (options: EtcdCallOptions) => Promise<T>;

/** EtcdCallerSettings bound the calls. */
export interface EtcdCallerSettings {
  /** requestTimeoutMs is the most a call may take, retries included. */
  readonly requestTimeoutMs: number;
}

const FIRST_BACKOFF_MS = 25;
const MAX_BACKOFF_MS = 500;
/** READ_ATTEMPTS_PER_DEADLINE: a read sent to a member that stopped answering leaves time to ask another. */
const READ_ATTEMPTS_PER_DEADLINE = 3;
const MIN_READ_ATTEMPT_MS = 1_000;

/**
 * NOT_SENT_MESSAGES are the failures after which etcd cannot have applied a write: no connection
 * was made, or the member refused the request before proposing it to the cluster.
 */
const NOT_SENT_MESSAGES = [
  'No connection established',
  'Channel closed before call started',
  'ECONNREFUSED',
  'etcdserver: no leader',
  'etcdserver: too many requests',
  'etcdserver: not capable',
  'raft proposal dropped',
];

const COMPACTED_MESSAGE = 'required revision has been compacted';

/** EtcdCaller runs calls with deadlines and retries and reports what it saw to a Reachability. */
export class EtcdCaller {
  /** lastFailure is the last error a member gave, kept to explain why the breaker skips every member. */
  private lastFailure = 'none yet';

  constructor(private readonly settings: EtcdCallerSettings, private readonly reachability: Reachability) {}

  /** read runs an idempotent call, on any member that answers within budgetMs. */
  read<T>(what: string, call: EtcdCall<T>, budgetMs = this.settings.requestTimeoutMs): Promise<T> {
    const attemptMs = Math.max(MIN_READ_ATTEMPT_MS, budgetMs / READ_ATTEMPTS_PER_DEADLINE);
    return this.run(what, call, budgetMs, attemptMs, isTransient);
  }

  /** write runs a call that must not be applied twice: it is sent again only if it was never sent. */
  write<T>(what: string, call: EtcdCall<T>): Promise<T> {
    const budgetMs = this.settings.requestTimeoutMs;
    return this.run(what, call, budgetMs, budgetMs, wasNotSent);
  }

  private async run<T>(what: string, call: EtcdCall<T>, budgetMs: number, attemptMs: number, retryable: (err: unknown) => boolean): Promise<T> {
    const deadline = Date.now() + budgetMs;
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(2 * backoff, MAX_BACKOFF_MS)) {
      try {
        const result = await call({ deadline: Date.now() + Math.min(attemptMs, Math.max(1, deadline - Date.now())) });
        this.reachability.answered();
        return result;
      } catch (err) {
        if (!isTransient(err)) {
          // etcd answered, with a refusal: the member is reachable.
          if (!(err instanceof ClientClosedError)) this.reachability.answered();
          throw answeredError(what, err);
        }
        if (!isBrokenCircuitError(err)) this.lastFailure = describe(err);
        const outOfTime = Date.now() + backoff >= deadline;
        if (outOfTime || !retryable(err)) {
          const detail = isBrokenCircuitError(err) ? `every member is skipped after failing its last calls (the last: ${this.lastFailure})` : describe(err);
          // A write lost on one member says nothing of the others; a call that ran out of time does.
          if (outOfTime) this.reachability.unreachable(detail);
          throw new AppError('ServiceUnavailable', `etcd: ${what} failed: ${detail}`, {}, { cause: err });
        }
        await new Promise((resolve) => setTimeout(resolve, backoff));
      }
    }
  }
}

/** isCompacted tells whether an error from EtcdCaller says the revision asked for was compacted. */
export function isCompacted(err: unknown): boolean {
  return err instanceof AppError && err.code === 'Expired';
}

/** isTransient: no member answered the call (connection failed, deadline passed, member skipped). */
function isTransient(err: unknown): boolean {
  return err instanceof Error && (isRecoverableError(err) || isBrokenCircuitError(err));
}

function wasNotSent(err: unknown): boolean {
  if (isBrokenCircuitError(err)) return true;
  const message = err instanceof Error ? err.message : '';
  return NOT_SENT_MESSAGES.some((text) => message.includes(text));
}

/** answeredError maps a refusal from etcd (or a closed client) to the AppError that says what it means. */
function answeredError(what: string, err: unknown): AppError {
  const message = describe(err);
  if (err instanceof ClientClosedError) return new AppError('ServiceUnavailable', 'etcd: the backend is closed', {}, { cause: err });
  if (message.includes(COMPACTED_MESSAGE)) return new AppError('Expired', `etcd: ${what}: ${message}`, {}, { cause: err });
  if (message.includes('request is too large')) return new AppError('RequestEntityTooLarge', `etcd: ${what}: ${message}`, {}, { cause: err });
  return new AppError('ServiceUnavailable', `etcd: ${what} failed: ${message}`, {}, { cause: err });
}

/** describe is an error's message. */
function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
