// The etcd thread's entry point: an EtcdBackend of its own (without compaction, which the main
// thread's backend runs), serving the main thread's commits, lists and feeds as messages. What
// gRPC allocates per call (streams, buffers, protobuf messages) is born and collected in this
// thread's small heap; only the plain entries and changes cross.

import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { BackendHealth, BackendOp, Change, Feed } from '../backend.js';
import { openEtcdBackend } from './etcd-backend.js';
import type { EtcdBackend } from './etcd-backend.js';
import type { EtcdFence } from './etcd-fence.js';
import { listPages } from './etcd-list.js';
import { IDLE_COLLECTION, IdleCollector } from './idle-collector.js';
import { Outbox, toThreadError } from './etcd-thread-protocol.js';
import type { FromThread, ThreadFence, ThreadStart, ToThread } from './etcd-thread-protocol.js';

const HEALTH_POLL_MS = 200;

/** EtcdThreadServer answers one main thread's messages with one backend. */
class EtcdThreadServer {
  private readonly feeds = new Map<number, Feed>();
  private reported: BackendHealth | undefined;
  private readonly healthTimer: NodeJS.Timeout;
  /** lastFence is reused while the holder's fence is the same, so commits behind it still share transactions. */
  private lastFence: EtcdFence | undefined;
  private fenceAtHand: EtcdFence | undefined;
  private fencedPrefix: string | undefined;

  private readonly outbox: Outbox<FromThread>;
  /** collector gives the garbage of a burst of work back once the thread is idle (idle-collector.ts). */
  private readonly collector = new IdleCollector(IDLE_COLLECTION).start();

  constructor(port: MessagePort, private readonly backend: EtcdBackend) {
    this.outbox = new Outbox((batch) => {
      this.collector.touch();
      port.postMessage(batch);
    });
    this.healthTimer = setInterval(() => this.reportHealth(), HEALTH_POLL_MS);
    this.healthTimer.unref();
    this.reportHealth();
  }

  receive(message: ToThread): void {
    this.collector.touch();
    switch (message.t) {
      case 'commit':
        this.commit(message.op, message.fence, message.id);
        return;
      case 'list':
        this.answer(message.id, listPages(this.backend, message.prefix, {
          page: (entries) => this.send({ t: 'page', id: message.id, entries }),
          restart: () => this.send({ t: 'restart', id: message.id }),
        }));
        return;
      case 'revision':
        this.answer(message.id, this.backend.currentRevision());
        return;
      case 'barrier':
        this.answer(message.id, this.backend.barrier());
        return;
      case 'watch':
        this.watch(message.feed, message.prefix, message.after, message.progress);
        return;
      case 'unwatch':
        void this.feeds.get(message.feed)?.stop();
        this.feeds.delete(message.feed);
        return;
      case 'close':
        clearInterval(this.healthTimer);
        this.collector.stop();
        this.answer(message.id, this.backend.close().then(() => undefined));
    }
  }

  /**
   * commit sends op behind the fence the main thread found for it. The backend's fencing reads
   * the fence of the commit at hand: commit() looks it up before it returns, so each commit gets
   * its own message's fence.
   */
  private commit(op: BackendOp, fence: ThreadFence | undefined, id: number): void {
    if (fence !== undefined && this.fencedPrefix !== fence.prefix) {
      this.fencedPrefix = fence.prefix;
      this.backend.fence({ prefix: fence.prefix, current: () => this.fenceAtHand });
    }
    this.fenceAtHand = this.fenceOf(fence);
    this.answer(id, this.backend.commit(op));
    this.fenceAtHand = undefined;
  }

  private watch(feed: number, prefix: string, after: number, progress: boolean): void {
    const handlers = {
      changes: (changes: readonly Change[]) => this.send({ t: 'changes', feed, changes }),
      compacted: () => {
        this.feeds.delete(feed);
        this.send({ t: 'compacted', feed });
      },
    };
    const progressHandler = { progress: (revision: number) => this.send({ t: 'progress', feed, revision }) };
    this.feeds.set(feed, this.backend.watch(prefix, after, progress ? { ...handlers, ...progressHandler } : handlers));
  }

  private answer(id: number, running: Promise<Extract<FromThread, { t: 'result' }>['value']>): void {
    running.then(
      (value) => this.send({ t: 'result', id, value }),
      (err: unknown) => this.send({ t: 'error', id, error: toThreadError(err) }),
    );
  }

  private fenceOf(fence: ThreadFence | undefined): EtcdFence | undefined {
    if (fence === undefined) return undefined;
    const last = this.lastFence;
    if (last !== undefined && last.createRevision === fence.createRevision && last.key.equals(fence.key)) return last;
    this.lastFence = { key: Buffer.from(fence.key), createRevision: fence.createRevision };
    return this.lastFence;
  }

  private reportHealth(): void {
    const health = this.backend.health();
    if (this.reported?.ok === health.ok && this.reported.message === health.message) return;
    this.reported = health;
    this.send({ t: 'health', health });
  }

  private send(message: FromThread): void {
    this.outbox.push(message);
  }
}

async function serve(port: MessagePort, start: ThreadStart): Promise<void> {
  let backend: EtcdBackend;
  try {
    backend = await openEtcdBackend({ ...start, compactIntervalMs: 0 });
  } catch (err) {
    port.postMessage([{ t: 'failed', error: toThreadError(err) }] satisfies FromThread[]);
    return;
  }
  const server = new EtcdThreadServer(port, backend);
  port.on('message', (batch: ToThread[]) => {
    for (const message of batch) server.receive(message);
  });
  port.postMessage([{ t: 'opened' }] satisfies FromThread[]);
}

if (parentPort !== null) void serve(parentPort, workerData as ThreadStart);
