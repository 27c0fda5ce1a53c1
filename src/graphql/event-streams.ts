// Subscriptions' event streams: each subscription reads its own watch of the read model through
// a bounded queue. The watch's listener runs synchronously inside the cache's write, so it never
// waits for a client; when a client falls `queueSize` events behind (it stopped reading and the
// socket pushed back), its stream drops what it holds, stops its watch and ends with
// SLOW_CONSUMER, instead of buffering without bound. A stream also ends when its subscription
// ends (the client completes or disconnects) or when the app closes.

import type { GraphQLError } from 'graphql';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { CachedObjectFilter, ReadEvent, ReadModel, ReadWatch } from '../read/read-model.js';
import { graphqlJs } from './graphql-runtime.js';
import { toGraphqlError } from './to-graphql-error.js';

/** SUBSCRIPTIONS_GAUGE is the metric counting open GraphQL subscriptions. */
export const SUBSCRIPTIONS_GAUGE = 'cachegate_graphql_subscriptions';

/** EventStreamsOptions: the read model, the queue bound, and the registry for the gauge. */
export interface EventStreamsOptions {
  readonly read: ReadModel;
  readonly queueSize: number;
  readonly registry?: Registry;
}

/** EventStreams opens one bounded stream of ReadEvents per subscription and closes them all on shutdown. */
export class EventStreams {
  private readonly open = new Set<EventStream>();
  private readonly gauge: Gauge;

  constructor(private readonly options: EventStreamsOptions) {
    this.gauge = subscriptionsGauge(options.registry);
  }

  /**
   * stream starts a watch for filter and returns its events as an async iterator (rejects as the
   * watch does). read is the read model to watch through (the subscriber's, narrowed to its clusters).
   */
  async stream(filter: CachedObjectFilter, read: ReadModel = this.options.read): Promise<AsyncIterableIterator<ReadEvent>> {
    const stream = new EventStream(this.options.queueSize, () => {
      if (this.open.delete(stream)) this.gauge.dec();
    });
    this.open.add(stream);
    this.gauge.inc();
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
}

/** subscriptionsGauge reuses the registry's gauge if another app part made it, else registers one. */
function subscriptionsGauge(registry: Registry | undefined): Gauge {
  const existing = registry?.getSingleMetric(SUBSCRIPTIONS_GAUGE);
  if (existing instanceof Gauge) return existing;
  return new Gauge({ name: SUBSCRIPTIONS_GAUGE, help: 'Open GraphQL subscriptions (cachedObjectEvents).', registers: registry ? [registry] : [] });
}

type Waiter = { resolve(result: IteratorResult<ReadEvent>): void; reject(error: unknown): void };

/** EventStream is one subscription's queue: at most `bound` events wait for the client. */
class EventStream implements AsyncIterableIterator<ReadEvent> {
  private queue: ReadEvent[] = [];
  private waiter: Waiter | undefined;
  private failure: GraphQLError | undefined;
  private ended = false;
  private watch: ReadWatch | undefined;

  constructor(private readonly bound: number, private readonly onEnd: () => void) {}

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
    } else if (this.queue.length < this.bound) {
      this.queue.push(event);
    } else {
      this.failure = new graphqlJs.GraphQLError(`subscription ended: the client fell ${this.bound} events behind`, {
        extensions: { code: 'SLOW_CONSUMER', limit: this.bound },
      });
      this.end();
    }
  }

  next(): Promise<IteratorResult<ReadEvent>> {
    const event = this.queue.shift();
    if (event) return Promise.resolve({ value: event, done: false });
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
