// Serving one watch as newline-delimited JSON. Headers are flushed before the first event so
// clients whose start() waits for them (client-node informers) do not hang on a quiet resource.
// A watcher that stops reading is cut off once its buffer passes a bound; it resumes from the
// last resourceVersion it saw, which the event window usually still holds.
//
// What a watch holds, in bytes: its live events as encoded lines, at most maxBufferedBytes
// (counted with what waits in the socket); its catch-up (the initial state, or the window's events
// after its resourceVersion) as references to objects the store held when the watch started, each
// let go once written, so a catch-up never holds more than the store's table or event window did
// and shrinks as the reader reads. A reader that stalls in its catch-up keeps the rest pinned until
// maxBufferedBytes of live events wait behind it (then it is cut) or its timeout ends the watch.

import type { FastifyReply } from 'fastify';
import { JsonText } from '../apimachinery/json-text.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { Scope, Watch, WatchEvent, WatchOptions, ResourceStore } from '../store/store.js';

/** WatchLimits bound a watch's life and memory. */
export interface WatchLimits {
  /** timeoutSeconds: the stream ends after this long (clients then re-watch). */
  readonly timeoutSeconds: number;
  /** bookmarkIntervalMs: how often a BOOKMARK is sent when the client allows them; 0 = never. */
  readonly bookmarkIntervalMs: number;
  /** maxBufferedBytes: a client this far behind is disconnected. */
  readonly maxBufferedBytes: number;
}

/** WatchRequest is one watch to serve. */
export interface WatchRequest {
  readonly scope: Scope;
  readonly options: WatchOptions;
  readonly bookmarks: boolean;
  /** encode turns one event into its JSON line (without the newline). */
  readonly encode: (event: WatchEvent) => string;
}

/** ActiveWatches ends every open watch stream when the server shuts down. */
export class ActiveWatches {
  readonly #closers = new Set<() => void>();

  /** add registers a closer and returns the function that unregisters it. */
  add(close: () => void): () => void {
    this.#closers.add(close);
    return () => this.#closers.delete(close);
  }

  /** closeAll ends every open stream. */
  closeAll(): void {
    for (const close of [...this.#closers]) close();
  }

  /** size is the number of open streams. */
  get size(): number {
    return this.#closers.size;
  }
}

/**
 * serveWatch starts the store watch first (so a too-old resourceVersion can still be answered
 * with a 410 Status by the caller), then writes the response head and streams events.
 */
export async function serveWatch(
  store: ResourceStore, reply: FastifyReply, req: WatchRequest, limits: WatchLimits, active: ActiveWatches,
): Promise<void> {
  const pending: WatchEvent[] = [];
  let write: (event: WatchEvent) => void = (event) => void pending.push(event);
  const watch: Watch = await store.watch(req.scope, req.options, (event) => write(event));
  reply.hijack();
  // A body sent with the watch is read and dropped: left unread, it pauses the connection, and a
  // paused connection never notices its client going away (a quiet watch then holds it open).
  reply.request.raw.resume();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  raw.flushHeaders();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    watch.stop();
    clearTimeout(timer);
    if (bookmarkTimer) clearInterval(bookmarkTimer);
    unregister();
    raw.end();
  };
  const cut = (): void => {
    end();
    // end() alone would keep the connection and its buffer until the reader caught up; drop both.
    raw.destroy();
  };
  write = pacedWriter(raw, req.encode, pending.splice(0), limits.maxBufferedBytes, cut, () => ended);
  const unregister = active.add(end);
  const timer = setTimeout(end, limits.timeoutSeconds * 1000).unref();
  const bookmarkTimer = req.bookmarks && limits.bookmarkIntervalMs > 0
    ? setInterval(() => watch.bookmark(), limits.bookmarkIntervalMs).unref()
    : undefined;
  raw.on('close', end);
}

/** CATCH_UP_HIGH_WATER: catch-up events are handed to the socket only while less than this waits in it. */
const CATCH_UP_HIGH_WATER = 64 * 1024;

/**
 * pacedWriter writes a watch's catch-up events (the initial state or the replayed window) as the
 * socket drains, exempt from the bound: every new watcher gets that burst at once, so it says
 * nothing about the reader, and a collection larger than the bound would otherwise cut every
 * watcher that starts without a resourceVersion. Live events count against the bound: once
 * more than maxBufferedBytes of them wait, the reader is too slow and is cut.
 */
function pacedWriter(
  raw: FastifyReply['raw'], encode: (event: WatchEvent) => string, catchUp: WatchEvent[],
  maxBufferedBytes: number, cut: () => void, ended: () => boolean,
): (event: WatchEvent) => void {
  let next = 0;
  const unsent: (WatchEvent | undefined)[] = catchUp;
  const live: string[] = [];
  let liveBytes = 0;
  const pump = (): void => {
    while (!ended() && raw.writableLength < CATCH_UP_HIGH_WATER) {
      if (next < unsent.length) {
        const event = unsent[next] as WatchEvent;
        // Written events are let go at once: a long catch-up must not pin versions already sent.
        unsent[next++] = undefined;
        raw.write(encode(event) + '\n');
      } else if (live.length > 0) {
        const line = live.shift()!;
        liveBytes -= line.length;
        raw.write(line);
      } else return;
    }
  };
  raw.on('drain', pump);
  pump();
  return (event) => {
    if (ended()) return;
    const line = encode(event) + '\n';
    if (next < unsent.length || live.length > 0) {
      live.push(line);
      liveBytes += line.length;
      pump();
    } else raw.write(line);
    if (liveBytes + raw.writableLength > maxBufferedBytes) cut();
  };
}

/**
 * EventEncoder serialises each stored object once, however many watchers receive it. Texts made
 * for lists and gets are kept while their object lives; texts made for watch events are not: every
 * write is sent to some watcher (the app's own informers watch the embedded source), so keeping
 * them would double what the event window holds. A committed change reaches all its watchers in
 * one synchronous loop, so remembering the last event's text serves every watcher but the first.
 */
export class EventEncoder {
  readonly #json = new JsonText();
  #lastEvent: KubeObject | undefined;
  #lastEventText = '';

  /** line gives the watch line of an event whose object is sent as is. */
  line(event: WatchEvent): string {
    return `{"type":"${event.type}","object":${this.eventJson(event.object)}}`;
  }

  /** eventJson gives an event object's JSON text: a list's cached text, or the last event's. */
  private eventJson(obj: KubeObject): string {
    if (obj === this.#lastEvent) return this.#lastEventText;
    const text = this.#json.peek(obj);
    this.#lastEvent = obj;
    this.#lastEventText = text;
    return text;
  }

  /** json gives the JSON text of a stored (frozen) object, cached. */
  json(obj: KubeObject): string {
    return this.#json.of(obj);
  }
}
