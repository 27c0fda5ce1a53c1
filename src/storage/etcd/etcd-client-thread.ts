// The etcd client's data plane in a worker thread. At 2,000 writes a second, the gRPC client
// allocated about 8 MB/s that lived just long enough to be promoted to the old generation of the
// main thread's heap, which also holds the watch cache (hundreds of MB of small objects): full
// collections came every few seconds and each one stalled the process for hundreds of ms. In a
// thread, the client's garbage is collected in a heap of its own a few MB large; the main thread
// receives plain entries and changes (a copy of each value, which the store parses anyway), and
// the protobuf decoding of lists and feeds runs beside the main thread instead of on it.

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { readEach } from '../backend.js';
import type { BackendHealth, BackendList, BackendOp, EntryReader, Feed, FeedHandlers, OpResult, ThreadHeap } from '../backend.js';
import type { EtcdFence } from './etcd-fence.js';
import { Outbox, fromThreadError } from './etcd-thread-protocol.js';
import type { FromThread, ThreadError, ThreadStart, ToThread } from './etcd-thread-protocol.js';
import { StorageOpenError } from '../storage-open-error.js';

/** Call is a request waiting for its answer; a list also hears its pages. */
interface Call {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: AppError) => void;
  readonly page?: (message: Extract<FromThread, { t: 'page' }>) => void;
  readonly restart?: () => void;
}

/**
 * WORKER_YOUNG_GENERATION_MB bounds the thread's young generation. Everything the thread allocates
 * dies young, and with V8's default the heap it keeps after a burst (100k commits) was about 160 MB
 * for 50 MB in use; with 8 MB it keeps about 56 MB (process RSS 350 → 230 MB), at the same speed.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * WORKER_OLD_GENERATION_MB bounds the thread's old generation, and so how much garbage V8 lets it
 * gather. V8 lets old space grow to a multiple of what the last full GC kept: 4x for a heap whose
 * limit is 2 GiB or more (a worker inherits the process's limit), 1.3x-2x below that (1.6x at
 * 1 GiB). With 4x, the thread held 29-34 MB after a 100k-copy sync, mostly garbage, and kept it
 * while idle; with 1 GiB it holds 24 MB and the process's RSS at rest is 20-35 MB lower, at the same
 * sync speed. 1 GiB is about 40 times the thread's live heap during a list of 100k copies, and a
 * list of large objects fits too: its pages are bounded by bytes (etcd-list.ts).
 */
const WORKER_OLD_GENERATION_MB = 1024;

/** EtcdClientThread runs commits, lists and feeds on an etcd client in a worker thread. */
export class EtcdClientThread {
  private nextId = 1;
  private readonly calls = new Map<number, Call>();
  private readonly feeds = new Map<number, FeedHandlers>();
  private threadHealth: BackendHealth = { ok: true };
  private exited: string | undefined;

  /** opened settles once the thread has opened its backend (or could not). */
  private readonly opened: Promise<void>;
  private settleOpen: ((error?: ThreadError) => void) | undefined;
  private readonly outbox: Outbox<ToThread>;

  private constructor(private readonly worker: Worker) {
    this.opened = new Promise((resolve, reject) => {
      this.settleOpen = (error) => (error === undefined ? resolve() : reject(openError(error)));
    });
    this.outbox = new Outbox((batch) => worker.postMessage(batch));
    worker.on('message', (batch: FromThread[]) => {
      for (const message of batch) this.receive(message);
    });
    worker.on('error', (err) => this.end(`the etcd client thread failed: ${err.message}`));
    worker.on('exit', (code) => this.end(`the etcd client thread exited (code ${code})`));
  }

  /** start opens the thread's backend; a StorageOpenError there is thrown here. */
  static async start(options: ThreadStart): Promise<EtcdClientThread> {
    const thread = new EtcdClientThread(new Worker(workerUrl(), {
      workerData: options, execArgv: workerExecArgv(), resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB },
    }));
    try {
      await thread.opened;
    } catch (err) {
      await thread.worker.terminate();
      throw err;
    }
    return thread;
  }

  commit(op: BackendOp, fence: EtcdFence | undefined, fencedPrefix: string): Promise<OpResult> {
    const threadFence = fence === undefined ? undefined : { key: fence.key, createRevision: fence.createRevision, prefix: fencedPrefix };
    return this.call((id) => ({ t: 'commit', id, op, ...(threadFence === undefined ? {} : { fence: threadFence }) }));
  }

  /** list runs read over each page as it arrives, while the thread fetches the next ones. */
  async list<T>(prefix: string, read: EntryReader<T>): Promise<BackendList<T>> {
    let entries: T[] = [];
    const revision = await this.call<number>((id) => ({ t: 'list', id, prefix }), {
      page: (message) => void readEach(message.entries, read, entries),
      restart: () => (entries = []),
    });
    return { revision, entries };
  }

  currentRevision(): Promise<number> {
    return this.call((id) => ({ t: 'revision', id }));
  }

  /** barrier moves the thread's feeds that hear progress (see EtcdBackend.barrier). */
  barrier(): Promise<number> {
    return this.call((id) => ({ t: 'barrier', id }));
  }

  watch(prefix: string, after: number, handlers: FeedHandlers): Feed {
    const feed = this.nextId++;
    this.feeds.set(feed, handlers);
    this.send({ t: 'watch', feed, prefix, after, progress: handlers.progress !== undefined });
    return {
      stop: async () => {
        if (!this.feeds.delete(feed)) return;
        this.send({ t: 'unwatch', feed });
      },
    };
  }

  /** health is what the thread last reported of etcd. */
  health(): BackendHealth {
    if (this.exited !== undefined) return { ok: false, message: `etcd: ${this.exited}` };
    return this.threadHealth;
  }

  /** heap is the thread's V8 heap; undefined once the thread has ended. */
  async heap(): Promise<ThreadHeap | undefined> {
    if (this.exited !== undefined) return undefined;
    try {
      const stats = await this.worker.getHeapStatistics();
      return { usedBytes: stats.used_heap_size, totalBytes: stats.total_heap_size };
    } catch {
      // The thread ended between the check and the answer.
      return undefined;
    }
  }

  /** close lets the thread's commits settle, closes its client and ends the thread. */
  async close(): Promise<void> {
    if (this.exited !== undefined) return;
    this.feeds.clear();
    await this.call((id) => ({ t: 'close', id })).catch(() => undefined);
    await this.worker.terminate();
  }

  private call<T>(message: (id: number) => ToThread, listener: Pick<Call, 'page' | 'restart'> = {}): Promise<T> {
    if (this.exited !== undefined) return Promise.reject(new AppError('ServiceUnavailable', `etcd: ${this.exited}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject, ...listener });
      this.send(message(id));
    });
  }

  private receive(message: FromThread): void {
    switch (message.t) {
      case 'result':
      case 'error': {
        const call = this.calls.get(message.id);
        this.calls.delete(message.id);
        if (message.t === 'result') call?.resolve(message.value);
        else call?.reject(fromThreadError(message.error));
        return;
      }
      case 'page':
        this.calls.get(message.id)?.page?.(message);
        return;
      case 'restart':
        this.calls.get(message.id)?.restart?.();
        return;
      case 'health':
        this.threadHealth = message.health;
        return;
      case 'opened':
      case 'failed':
        this.settleOpen?.(message.t === 'failed' ? message.error : undefined);
        return;
      default:
        this.toFeed(message);
    }
  }

  private toFeed(message: FromThread): void {
    if (message.t !== 'changes' && message.t !== 'progress' && message.t !== 'compacted') return;
    const handlers = this.feeds.get(message.feed);
    if (handlers === undefined) return;
    if (message.t === 'changes') handlers.changes(message.changes);
    else if (message.t === 'progress') handlers.progress?.(message.revision);
    else {
      this.feeds.delete(message.feed);
      handlers.compacted();
    }
  }

  private send(message: ToThread): void {
    this.outbox.push(message);
  }

  /** end fails every call in flight: the thread is gone, and with it their answers. */
  private end(reason: string): void {
    this.exited ??= reason;
    this.settleOpen?.({ message: reason });
    for (const call of this.calls.values()) call.reject(new AppError('ServiceUnavailable', `etcd: ${reason}`));
    this.calls.clear();
  }
}

/** openError is why the thread could not open its backend, as open-time errors are thrown. */
function openError(error: ThreadError): Error {
  return error.storageOpen === true ? new StorageOpenError(error.message) : fromThreadError(error);
}

/** workerUrl is the worker's module next to this one: compiled (.js) or, when run from source, .ts. */
function workerUrl(): URL {
  return new URL(import.meta.url.endsWith('.ts') ? './etcd-client-worker.ts' : './etcd-client-worker.js', import.meta.url);
}

/** workerExecArgv loads TypeScript in the thread when cachegate runs from source (tsx, vitest). */
function workerExecArgv(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}
