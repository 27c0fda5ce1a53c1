// The reconcile loop of controller-runtime: N workers take keys from a WorkQueue and call
// reconcile. Success forgets the key's backoff, a TerminalError is logged and dropped, any other
// failure is retried with rate-limited backoff. The queue guarantees one reconcile per key at a
// time, so reconcile needs no locking of its own.

import type { Logger } from 'pino';
import type { ControllerMetrics, ReconcileResult } from './controller-metrics.js';
import { LoopTurns } from '../../apimachinery/loop-turns.js';
import { TerminalError } from './terminal-error.js';
import { WorkQueue } from './work-queue.js';

/** Result is what a reconcile may ask for: requeueAfterMs re-runs the key after that delay. */
export interface Result {
  readonly requeueAfterMs?: number;
}

/** ReconcileFn brings the world in line with the object named by key. */
export type ReconcileFn = (key: string) => Promise<Result | void>;

/** ControllerOptions configures a Controller; name labels its logs and metrics. */
export interface ControllerOptions {
  readonly name: string;
  readonly workers: number;
  readonly reconcile: ReconcileFn;
  readonly log: Logger;
  readonly metrics?: ControllerMetrics;
  /** queue defaults to a WorkQueue named after the controller with the default rate limiter. */
  readonly queue?: WorkQueue;
  /** turns paces the workers against the event loop; controllers of one process may share one. */
  readonly turns?: LoopTurns;
}

/** RETRY_MESSAGE is logged once per failed reconcile that will be retried. */
export const RETRY_MESSAGE = 'reconcile failed, will retry';
/** TERMINAL_MESSAGE is logged once per failed reconcile that will not be retried. */
export const TERMINAL_MESSAGE = 'reconcile failed terminally, will not retry';

/** Controller runs reconcile for queued keys on a fixed number of workers. */
export class Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  private readonly workers: number;
  private readonly reconcile: ReconcileFn;
  private readonly log: Logger;
  private readonly metrics: ControllerMetrics | undefined;
  private readonly turns: LoopTurns;
  private loops: Promise<void>[] | undefined;

  constructor(opts: ControllerOptions) {
    if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new RangeError(`controller ${opts.name} needs at least one worker`);
    this.name = opts.name;
    this.workers = opts.workers;
    this.reconcile = opts.reconcile;
    this.log = opts.log;
    this.metrics = opts.metrics;
    this.queue = opts.queue ?? new WorkQueue({ name: opts.name });
    this.turns = opts.turns ?? new LoopTurns();
  }

  /** enqueue asks for key to be reconciled. */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  /** enqueueAfter asks for key to be reconciled once ms have passed. */
  enqueueAfter(key: string, ms: number): void {
    this.queue.addAfter(key, ms);
  }

  /** isIdle tells whether no key is queued, being reconciled, or waiting for a retry. */
  isIdle(): boolean {
    return this.queue.isIdle();
  }

  /** isSettled tells whether the workers run and every key queued so far has been reconciled once (a retry may be due). */
  isSettled(): boolean {
    return this.loops !== undefined && this.queue.isSettled();
  }

  /** start launches the worker loops; starting twice is a programming error. */
  start(): void {
    if (this.loops !== undefined) throw new Error(`controller ${this.name} was started more than once`);
    this.loops = Array.from({ length: this.workers }, () => this.runWorker());
  }

  /** stop starts no new reconciles and resolves when the running ones have finished. */
  async stop(): Promise<void> {
    await this.queue.shutDownWithDrain();
    await Promise.all(this.loops ?? []);
  }

  /**
   * runWorker takes keys until the queue shuts down. Reconciles against in-memory stores finish
   * in microtasks, so a long backlog would never let timers or sockets run; the workers give the
   * event loop a turn together once they have used the turn's budget (see apimachinery/loop-turns.ts).
   * A worker holding a key also waits for a turn that has not started all its items, in the order
   * the workers came: workers that were idle and all get keys from one burst of adds do not all
   * start in one turn, and a turn wakes only the workers it lets start.
   */
  private async runWorker(): Promise<void> {
    for (;;) {
      const key = this.queue.tryGet() ?? (await this.queue.get());
      if (key === undefined) return;
      const turn = this.turns.tryTake() ?? (await this.turns.takeNext());
      await this.processItem(key);
      this.turns.finished(turn);
      if (this.turns.spent()) await this.turns.nextTurn();
    }
  }

  /** processItem reconciles key once; it never throws, so a bad reconcile cannot kill a worker. */
  private async processItem(key: string): Promise<void> {
    try {
      const result = await this.reconcile(key);
      this.succeeded(key, result ?? {});
    } catch (err) {
      this.failed(key, err);
    } finally {
      this.queue.done(key);
    }
  }

  private succeeded(key: string, result: Result): void {
    this.queue.forget(key);
    const after = result.requeueAfterMs;
    if (after !== undefined && after > 0) {
      this.queue.addAfter(key, after);
      this.count('requeue_after');
    } else {
      this.count('success');
    }
  }

  private failed(key: string, err: unknown): void {
    this.count('error');
    if (TerminalError.isTerminal(err)) {
      this.log.error({ controller: this.name, key, err }, TERMINAL_MESSAGE);
      this.queue.forget(key);
      return;
    }
    this.log.error({ controller: this.name, key, err }, RETRY_MESSAGE);
    this.queue.addRateLimited(key);
  }

  private count(result: ReconcileResult): void {
    this.metrics?.reconciled(this.name, result);
  }
}
