// Reading a source's response bodies as they arrive: a whole body with its start shown early (a
// List's continue token is in its first bytes), and a watch body as one event per line.

import { Buffer } from 'node:buffer';
import type { Response } from 'undici';

/** PEEK_CHARS bounds the start of a body a peek sees: a List's kind, apiVersion and metadata fit. */
const PEEK_CHARS = 4096;

/** peekedText reads a body to its end as text, showing peek its start as it arrives. */
export async function peekedText(res: Response, peek: (start: string) => boolean): Promise<string> {
  if (res.body === null) return '';
  const chunks: Buffer[] = [];
  const decoder = new TextDecoder();
  let start = '';
  let peeking = true;
  for await (const chunk of res.body) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    chunks.push(bytes);
    if (!peeking) continue;
    const shown = bytes.length <= PEEK_CHARS ? bytes : bytes.subarray(0, PEEK_CHARS);
    start += decoder.decode(shown, { stream: true });
    // A chunk shown only in part ends the peek: the decoder has not seen the rest of it.
    peeking = !peek(start) && shown === bytes && start.length < PEEK_CHARS;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** readEvents reads a watch body of newline-delimited JSON events until it ends; a line that is not an event is skipped. */
export async function readEvents(body: AsyncIterable<Uint8Array>, onEvent: (type: string, object: unknown) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = '';
  const emit = (line: string): void => {
    const event = parseEvent(line);
    if (event) onEvent(event.type, event.object);
  };
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    // A large event comes in many chunks: only a chunk that ends a line splits what is pending.
    if (!text.includes('\n')) {
      pending += text;
      continue;
    }
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) emit(line);
  }
  emit(pending + decoder.decode());
}

/** parseEvent reads one line of a watch body: an event with a string type, or nothing. */
function parseEvent(line: string): { type: string; object: unknown } | undefined {
  if (line.trim() === '') return undefined;
  try {
    const event = JSON.parse(line) as { type?: unknown; object?: unknown };
    return typeof event.type === 'string' ? { type: event.type, object: event.object } : undefined;
  } catch {
    return undefined;
  }
}
