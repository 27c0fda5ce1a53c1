// The messages between the main thread and the thread that runs the etcd client (see
// etcd-client-thread.ts). They are structured-cloned: plain data only, so an AppError crosses as
// its code, message and details and is built again on the other side.

import { AppError, isErrorCode } from '../../errors.js';
import type { ErrorDetails } from '../../errors.js';
import type { BackendHealth, BackendOp, Change, OpResult, StoredEntry } from '../backend.js';
import type { EtcdBackendOptions } from './etcd-backend-options.js';

/** ThreadFence is a fence as it crosses: the holder's key bytes and their create revision. */
export interface ThreadFence {
  readonly key: Uint8Array;
  readonly createRevision: number;
  /** prefix is the fenced key space, named by the error of a write the fence refuses. */
  readonly prefix: string;
}

/** ThreadStart is the worker's data: the backend's options, without compaction (the main thread's). */
export type ThreadStart = Omit<EtcdBackendOptions, 'compactIntervalMs' | 'clientThread'>;

/** ToThread is what the main thread sends. */
export type ToThread =
  | { readonly t: 'commit'; readonly id: number; readonly op: BackendOp; readonly fence?: ThreadFence }
  | { readonly t: 'list'; readonly id: number; readonly prefix: string }
  | { readonly t: 'revision'; readonly id: number }
  | { readonly t: 'barrier'; readonly id: number }
  | { readonly t: 'watch'; readonly feed: number; readonly prefix: string; readonly after: number; readonly progress: boolean }
  | { readonly t: 'unwatch'; readonly feed: number }
  | { readonly t: 'close'; readonly id: number };

/** FromThread is what the etcd thread sends. */
export type FromThread =
  | { readonly t: 'opened' }
  | { readonly t: 'failed'; readonly error: ThreadError }
  | { readonly t: 'result'; readonly id: number; readonly value: OpResult | number | undefined }
  | { readonly t: 'error'; readonly id: number; readonly error: ThreadError }
  | { readonly t: 'page'; readonly id: number; readonly entries: StoredEntry[] }
  | { readonly t: 'restart'; readonly id: number }
  | { readonly t: 'changes'; readonly feed: number; readonly changes: readonly Change[] }
  | { readonly t: 'progress'; readonly feed: number; readonly revision: number }
  | { readonly t: 'compacted'; readonly feed: number }
  | { readonly t: 'health'; readonly health: BackendHealth };

/**
 * Outbox sends the messages of one event-loop turn as one array: a postMessage costs about as much
 * as cloning a few KB, so 6,000 commits a second sent one by one cost the main thread more than
 * the commits' own work; gathered, they cost a message per turn.
 */
export class Outbox<T> {
  private pending: T[] = [];

  constructor(private readonly post: (batch: T[]) => void) {}

  push(message: T): void {
    if (this.pending.length === 0) setImmediate(() => this.flush());
    this.pending.push(message);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.post(batch);
  }
}

/** ThreadError is an error as it crosses: an AppError's code, message and details, or a message. */
export interface ThreadError {
  readonly code?: string;
  readonly message: string;
  readonly details?: ErrorDetails;
  /** storageOpen marks a StorageOpenError (the thread could not open the backend). */
  readonly storageOpen?: true;
}

/** toThreadError is err as it crosses. */
export function toThreadError(err: unknown): ThreadError {
  if (err instanceof AppError) return { code: err.code, message: err.message, details: err.details };
  const message = err instanceof Error ? err.message : String(err);
  return err instanceof Error && err.name === 'StorageOpenError' ? { message, storageOpen: true } : { message };
}

/** fromThreadError is the error that crossed, as an AppError (an unknown one is ServiceUnavailable: etcd's client failed). */
export function fromThreadError(error: ThreadError): AppError {
  if (error.code !== undefined && isErrorCode(error.code)) return new AppError(error.code, error.message, error.details ?? {});
  return new AppError('ServiceUnavailable', `etcd: ${error.message}`);
}
