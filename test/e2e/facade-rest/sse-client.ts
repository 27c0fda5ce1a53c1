// A small Server-Sent Events client for the REST facade's watch tests, over node:http with a
// connection of its own (fetch's pool may open a spare connection after a cancelled body, which
// would keep a closing server waiting). It parses the stream as the HTML standard describes:
// fields `id`, `event`, `data`; lines starting with `:` are comments.

import { request } from 'node:http';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { DEADLINE_MS } from '../../helpers/kube-http.js';

/** SseEvent is one parsed event. */
export interface SseEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

/** SseClient reads the events of one streaming response. */
export class SseClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly #request: ClientRequest;
  readonly #events: SseEvent[] = [];
  readonly #waiters = new Set<() => void>();
  #buffer = '';
  #done = false;
  /** body is the whole text received (for non-stream answers such as a 400 Status). */
  body = '';
  /** comments counts the comment lines seen (`: keep-alive`, ...). */
  comments = 0;

  private constructor(req: ClientRequest, res: IncomingMessage) {
    this.#request = req;
    this.status = res.statusCode ?? 0;
    this.headers = res.headers;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.body += chunk;
      this.#parse(chunk);
      this.#wake();
    });
    const over = (): void => {
      this.#done = true;
      this.#wake();
    };
    res.on('end', over);
    res.on('close', over);
    res.on('error', over);
  }

  /** open connects; the promise resolves once the response head arrived (the server flushes it at once). */
  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } });
      req.on('response', (res) => resolve(new SseClient(req, res)));
      req.on('error', reject);
      req.end();
    });
  }

  /** next returns the next event, or undefined when the stream ended; it gives up after timeoutMs. */
  async next(timeoutMs = DEADLINE_MS): Promise<SseEvent | undefined> {
    await this.waitFor(() => this.#events.length > 0, timeoutMs);
    return this.#events.shift();
  }

  /** until collects events until one satisfies the predicate (included) or the stream ends. */
  async until(predicate: (event: SseEvent) => boolean, timeoutMs = DEADLINE_MS): Promise<SseEvent[]> {
    const seen: SseEvent[] = [];
    for (;;) {
      const event = await this.next(timeoutMs);
      if (event === undefined) return seen;
      seen.push(event);
      if (predicate(event)) return seen;
    }
  }

  /** waitFor resolves when the condition holds or the stream ended; it rejects after timeoutMs. */
  waitFor(condition: () => boolean, timeoutMs = DEADLINE_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!condition() && !this.#done) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error('the SSE stream did not deliver in time'));
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  /** ended tells whether the stream is over and every event was taken. */
  get ended(): boolean {
    return this.#done && this.#events.length === 0;
  }

  /** close drops the connection. */
  close(): void {
    this.#request.destroy();
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #parse(chunk: string): void {
    this.#buffer += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      let id: string | undefined;
      let event = 'message';
      const data: string[] = [];
      let fields = 0;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments++;
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        fields++;
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (fields > 0) this.#events.push({ ...(id === undefined ? {} : { id }), event, data: data.join('\n') });
    }
  }
}
