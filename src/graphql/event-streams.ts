// Subscriptions' event streams: each subscription reads its own watch of the read model through
// a bounded queue. The watch's listener runs synchronously inside the cache's write, so it never
// waits for a client. mercurius takes the next event only once the previous one was written to the
// socket, so a client that stops reading leaves its events here; when it falls `queueSize` events
// or `queueBytes` estimated bytes behind, its stream drops what it holds, stops its watch and ends
// with SLOW_CONSUMER, instead of buffering without bound. The byte bound is the one that holds
// memory: each queued event pins a version of its object, and a thousand versions of a large
// object are a thousand copies. A stream also ends when its subscription ends (the client
// completes or disconnects) or when the app closes.

import type { GraphQLError } from 'graphql';
import { estimatedBytes } from '../apimachinery/object-bytes.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { OpenStreamsGauge } from '../metrics/metrics.js';
import type { CachedObjectFilter, ReadEvent, ReadModel, ReadWatch } from '../read/read-model.js';
import { graphqlJs } from './graphql-runtime.js';
import { toGraphqlError } from './to-graphql-error.js';

/** DEFAULT_QUEUE_BYTES bounds a subscriber's queue in estimated bytes, as watch.maxBufferedBytes does a watch's buffer. */
export const DEFAULT_QUEUE_BYTES = 16 * 1024 * 1024;

/** EventStreamsOptions: the read model, the queue bounds, and the gauge of open subscriptions. */
export interface EventStreamsOptions {
  readonly read: ReadModel;
  /** queueSize: how many events a subscriber may fall behind. */
  readonly queueSize: number;
  /** queueBytes: how many estimated bytes of events a subscriber may fall behind (default DEFAULT_QUEUE_BYTES). */
  readonly queueBytes?: number;
  /** gauge counts the open subscriptions (`cachegate_graphql_subscriptions`). */
  readonly gauge?: OpenStreamsGauge;
}

/** QueueBounds: a stream is cut once it holds more than events events or bytes estimated bytes. */
interface QueueBounds {
  readonly events: number;
  readonly bytes: number;
  /** sizeOf estimates an event object's bytes. */
  readonly sizeOf: (obj: KubeObject) => number;
}

/** EventStreams opens one bounded stream of ReadEvents per subscription and closes them all on shutdown. */
export class EventStreams {
  private readonly open = new Set<EventStream>();
  private readonly gauge: OpenStreamsGauge | undefined;
  private readonly bounds: QueueBounds;
  // A change reaches every subscriber in one synchronous loop: measured once, for all of them.
  private lastMeasured: KubeObject | undefined;
  private lastBytes = 0;

  constructor(private readonly options: EventStreamsOptions) {
    this.gauge = options.gauge;
    this.bounds = { events: options.queueSize, bytes: options.queueBytes ?? DEFAULT_QUEUE_BYTES, sizeOf: (obj) => this.sizeOf(obj) };
  }

  /**
   * stream starts a watch for filter and returns its events as an async iterator (rejects as the
   * watch does). read is the read model to watch through (the subscriber's, narrowed to its clusters).
   */
  async stream(filter: CachedObjectFilter, read: ReadModel = this.options.read): Promise<AsyncIterableIterator<ReadEvent>> {
    const stream = new EventStream(this.bounds, () => {
      if (this.open.delete(stream)) this.gauge?.dec();
    });
    this.open.add(stream);
    this.gauge?.inc();
    try {
      stream.attach(await read.watchCachedObjects(filter, {}, (event) => stream.push(event)));
    } catch (err) {
      stream.end();
      throw toGraphqlError(err);
    }
    return stream;
  }

  /** closeAll ends every open stream (their subscriptions complete). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.end();
  }

  private sizeOf(obj: KubeObject): number {
    if (obj !== this.lastMeasured) {
      this.lastMeasured = obj;
      this.lastBytes = estimatedBytes(obj);
    }
    return this.lastBytes;
  }
}

type Waiter = { resolve(result: IteratorResult<ReadEvent>): void; reject(error: unknown): void };

/** EventStream is one subscription's queue: at most `bounds.events` events and `bounds.bytes` bytes wait for the client. */
class EventStream implements AsyncIterableIterator<ReadEvent> {
  private queue: ReadEvent[] = [];
  /** sizes are the queued events' estimated bytes, in queue order; queuedBytes is their sum. */
  private sizes: number[] = [];
  private queuedBytes = 0;
  private waiter: Waiter | undefined;
  private failure: GraphQLError | undefined;
  private ended = false;
  private watch: ReadWatch | undefined;

  constructor(private readonly bounds: QueueBounds, private readonly onEnd: () => void) {}

  /** attach hands over the running watch; a stream already ended stops it at once. */
  attach(watch: ReadWatch): void {
    this.watch = watch;
    if (this.ended) watch.stop();
  }

  /** push is the watch's listener: deliver, queue, or cut the consumer off when it is too far behind. */
  push(event: ReadEvent): void {
    if (this.ended) return;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter.resolve({ value: event, done: false });
      return;
    }
    const bytes = this.bounds.sizeOf(event.object);
    // One event always fits an empty queue, however large: the client is behind only by the send under way.
    const fitsBytes = this.queue.length === 0 || this.queuedBytes + bytes <= this.bounds.bytes;
    if (this.queue.length >= this.bounds.events || !fitsBytes) {
      this.cutOff(fitsBytes ? `${this.bounds.events} events` : `${this.bounds.bytes} bytes`);
      return;
    }
    this.queue.push(event);
    this.sizes.push(bytes);
    this.queuedBytes += bytes;
  }

  /** cutOff ends the stream with SLOW_CONSUMER, naming the bound that was passed. */
  private cutOff(behind: string): void {
    this.failure = new graphqlJs.GraphQLError(`subscription ended: the client fell ${behind} behind`, {
      extensions: { code: 'SLOW_CONSUMER', limit: this.bounds.events, limitBytes: this.bounds.bytes },
    });
    this.end();
  }

  next(): Promise<IteratorResult<ReadEvent>> {
    const event = this.queue.shift();
    if (event) {
      this.queuedBytes -= this.sizes.shift() ?? 0;
      return Promise.resolve({ value: event, done: false });
    }
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<ReadEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ReadEvent> {
    return this;
  }

  /** end stops the watch, drops queued events and wakes a waiting reader (with the failure, if any). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.sizes = [];
    this.queuedBytes = 0;
    this.watch?.stop();
    this.onEnd();
    const waiter = this.waiter;
    this.waiter = undefined;
    if (!waiter) return;
    if (this.failure) {
      waiter.reject(this.failure);
      this.failure = undefined;
    } else {
      waiter.resolve({ value: undefined, done: true });
    }
  }
}
