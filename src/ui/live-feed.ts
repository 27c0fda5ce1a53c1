// The live feed of CachedObject changes: one Server-Sent Events stream of /v1/cachedobjects
// (?watch=true, every object this token may see), read with fetch so it can carry the token.
// The event feed view lists what it delivers and the overview refreshes its counts on it.
// A stream that ends or breaks is opened again after a pause, resuming after the last event
// (Last-Event-ID), or from now when the server no longer holds that far back (410).

import { ApiError, UnauthorizedError } from './api-client.js';
import type { ApiClient } from './api-client.js';
import type { CachedObject } from './api-types.js';
import { SseParser } from './sse-parser.js';

/** FeedEvent is one change of a CachedObject, as received. */
export interface FeedEvent {
  readonly type: string;
  readonly object: CachedObject;
  /** resourceVersion is the cache's, the event's id. */
  readonly resourceVersion: string;
  readonly receivedAt: Date;
}

/** FeedState is what the stream is doing: shown next to the feed. */
export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'signed-out';

/** FeedListener hears every event and every change of state. */
export type FeedListener = (event: FeedEvent | undefined) => void;

/** FEED_LENGTH bounds the events kept: the newest are shown, older ones are dropped. */
export const FEED_LENGTH = 200;

const RETRY_MS = [1_000, 2_000, 5_000];

/** LiveFeed keeps one event stream open and the newest events, newest first. */
export class LiveFeed {
  readonly events: FeedEvent[] = [];
  state: FeedState = 'connecting';
  private readonly listeners = new Set<FeedListener>();
  private lastEventId: string | undefined;
  private running: AbortController | undefined;
  private failures = 0;

  constructor(private readonly api: ApiClient) {}

  /** subscribe adds a listener; the function returned removes it. */
  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** start opens the stream (again, after a new token); a stream already open is replaced. */
  start(): void {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.failures = 0;
    void this.run(controller.signal);
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.setState(this.failures === 0 ? 'connecting' : 'reconnecting');
      try {
        await this.readStream(signal);
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof UnauthorizedError) {
          this.setState('signed-out'); // the prompt is up; start() runs again with the new token
          return;
        }
        // 410: the server's event window no longer reaches the last event; follow from now.
        if (err instanceof ApiError && err.status === 410) this.lastEventId = undefined;
      }
      if (signal.aborted) return;
      this.setState('reconnecting');
      const pause = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)] ?? 5_000;
      this.failures += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }

  private async readStream(signal: AbortSignal): Promise<void> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.lastEventId !== undefined) headers['last-event-id'] = this.lastEventId;
    const res = await this.api.send('v1/cachedobjects', { watch: 'true' }, headers, signal);
    if (res.body === null) return;
    // The server writes its head (and `: watching`) once the watch is registered: from here on no change is missed.
    this.failures = 0;
    this.setState('live');
    const parser = new SseParser();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const event of parser.push(value)) this.receive(event.id, event.type, event.data);
    }
  }

  private receive(id: string | undefined, type: string, data: string): void {
    if (id !== undefined) this.lastEventId = id;
    let object: CachedObject;
    try {
      object = JSON.parse(data) as CachedObject;
    } catch {
      return; // not an object event: nothing to show
    }
    const event: FeedEvent = { type, object, resourceVersion: id ?? '', receivedAt: new Date() };
    this.events.unshift(event);
    if (this.events.length > FEED_LENGTH) this.events.length = FEED_LENGTH;
    for (const listener of this.listeners) listener(event);
  }

  private setState(state: FeedState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners) listener(undefined);
  }
}
