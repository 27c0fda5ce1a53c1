// One watch of CachedObjects served as Server-Sent Events. The read-model watch starts before
// anything is written, so a resourceVersion too old for the event window is still answered
// with an HTTP 410 Status (which also stops browsers' EventSource from retrying in a loop).
// Then the head is flushed at once and each change is one event:
//   id: <cache resourceVersion>\nevent: ADDED|MODIFIED|DELETED\ndata: <CachedObject JSON>\n\n
// A client that stops reading is cut off once the bytes buffered for it pass a bound; it
// resumes with Last-Event-ID and loses nothing the event window still holds.
//
// Memory: every event is written to the response at once, and the bound is checked on
// writableLength, which counts both what the response holds before its socket and what the
// socket has not sent, so a stream holds at most maxBufferedBytes plus one event. The only queue
// in front of it is `pending`, the events replayed while the watch starts: references to versions
// the event window holds anyway, written (or dropped, once cut) in the same synchronous step.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedObjectFilter, ReadEvent, ReadModel } from '../../read/read-model.js';
import type { JsonText } from '../../apimachinery/json-text.js';
import type { SseStreams } from './sse-streams.js';

/** SseLimits bound a stream's memory and keep idle connections alive through proxies. */
export interface SseLimits {
  /** keepAliveMs: how often a `: keep-alive` comment is sent. */
  readonly keepAliveMs: number;
  /** maxBufferedBytes: a client with more than this waiting in the server is disconnected. */
  readonly maxBufferedBytes: number;
}

/** SseRequest is one stream to serve. */
export interface SseRequest {
  readonly read: ReadModel;
  readonly filter: CachedObjectFilter;
  /** resourceVersion: deliver changes after it; undefined = from now. */
  readonly resourceVersion?: string;
  readonly limits: SseLimits;
  readonly streams: SseStreams;
  readonly json: JsonText;
}

/** serveSse streams the changes matching the filter until the client leaves or the app closes. */
export async function serveSse(req: FastifyRequest, reply: FastifyReply, sse: SseRequest): Promise<void> {
  const pending: ReadEvent[] = [];
  let deliver: (event: ReadEvent) => void = (event) => void pending.push(event);
  const from = sse.resourceVersion === undefined ? {} : { resourceVersion: sse.resourceVersion };
  const watch = await sse.read.watchCachedObjects(sse.filter, from, (event) => deliver(event));

  reply.hijack();
  // A body sent with the request is read and dropped: left unread, it pauses the connection, and
  // a paused connection never notices its client going away.
  reply.request.raw.resume();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    'x-request-id': req.id,
  });
  raw.flushHeaders();

  let ended = false;
  const finish = (abort: boolean): void => {
    if (ended) return;
    ended = true;
    watch.stop();
    clearInterval(keepAlive);
    unregister();
    if (abort) raw.destroy();
    else raw.end();
  };
  const write = (text: string): void => {
    if (ended) return;
    raw.write(text);
    // Past the bound the client is not keeping up: drop the connection and its buffer at once.
    if (raw.writableLength > sse.limits.maxBufferedBytes) finish(true);
  };
  deliver = (event) => {
    // Once cut, the rest of a replay is not even serialised.
    if (ended) return;
    write(`id: ${event.resourceVersion}\nevent: ${event.type}\ndata: ${sse.json.of(event.object)}\n\n`);
    // An event that pushed the stream past its bound was dropped with the connection.
    if (!ended) sse.streams.delivered();
  };
  const unregister = sse.streams.add(() => finish(false));
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), sse.limits.keepAliveMs).unref();
  raw.on('close', () => finish(false));
  raw.on('error', () => finish(true));
  if (raw.destroyed || req.raw.socket.destroyed) {
    finish(true);
    return;
  }
  write(': watching\n\n');
  for (const event of pending.splice(0)) deliver(event);
}
