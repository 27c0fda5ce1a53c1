// Server-Sent Events as the text/event-stream format defines them, read from a stream of text
// chunks that may split a line anywhere. The dashboard reads the stream with fetch rather than
// EventSource because EventSource cannot send an Authorization header.

/** ServerSentEvent is one dispatched event. */
export interface ServerSentEvent {
  readonly id: string | undefined;
  readonly type: string;
  readonly data: string;
}

/** SseParser turns chunks of an event stream into events. */
export class SseParser {
  private buffer = '';
  private id: string | undefined;
  private type = '';
  private data: string[] = [];

  /** push adds a chunk and returns the events it completes. */
  push(chunk: string): ServerSentEvent[] {
    this.buffer += chunk;
    const events: ServerSentEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (end < 0 || (this.buffer[end] === '\r' && end === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const event = this.line(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined; // a comment: keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const event = this.data.length === 0 ? undefined : { id: this.id, type: this.type === '' ? 'message' : this.type, data: this.data.join('\n') };
    this.type = '';
    this.data = [];
    return event;
  }
}
