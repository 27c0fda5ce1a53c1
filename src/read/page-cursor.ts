// The read model's continue token: the store's token plus the list's total, so every page can
// report totalCount (GraphQL connections need it) without counting again. Opaque to clients.

import { AppError } from '../errors.js';

/** PageCursor is what a continue token carries. */
export interface PageCursor {
  readonly storeToken: string;
  readonly total: number;
  /** shard is the shard the first page resolved a cluster-only filter to; later pages keep it. */
  readonly shard?: string;
}

/** encodeCursor makes an opaque continue token. */
export function encodeCursor(cursor: PageCursor): string {
  const shard = cursor.shard === undefined ? {} : { s: cursor.shard };
  return Buffer.from(JSON.stringify({ c: cursor.storeToken, t: cursor.total, ...shard }), 'utf8').toString('base64url');
}

/** decodeCursor reads a continue token; a token that is not one of ours → 400. */
export function decodeCursor(token: string): PageCursor {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { c?: unknown; t?: unknown; s?: unknown };
    if (typeof parsed.c === 'string' && typeof parsed.t === 'number' && (parsed.s === undefined || typeof parsed.s === 'string')) {
      return { storeToken: parsed.c, total: parsed.t, ...(parsed.s === undefined ? {} : { shard: parsed.s }) };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError('BadRequest', 'continue token is not valid: start a new list without it');
}
