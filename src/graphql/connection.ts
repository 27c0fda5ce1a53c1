// Relay connections over the read model's pages. The read model pages with opaque `continue`
// tokens, one per page; a Relay cursor must resume after any edge. So a cursor is either the page's
// continue token (on the page's last edge: resume exactly there) or "the page fetched with token p,
// item i" (resume by fetching that page again, i + 1 + first items, and skipping i + 1). After the
// first page both stay on the list's consistent snapshot, so pages neither repeat nor skip items
// while the cache changes (a cursor inside the first page re-reads the list's start).
// Paging goes forward only: a continue token resumes a snapshot after a point and cannot walk it
// backwards, so `last` and `before` would mean re-reading the list from its start; they are not
// offered, and hasPreviousPage tells only whether `after` named an edge (one before this page).

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { CachedObjectFilter, ReadModel } from '../read/read-model.js';
import type { QueryLimits } from './query-limits.js';

/** PageInfo is the value of the SDL type of the same name, as the Relay connection spec has it. */
export interface PageInfo {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly startCursor: string | null;
  readonly endCursor: string | null;
}

/** CachedObjectConnection is the value of the SDL type of the same name. */
export interface CachedObjectConnection {
  readonly edges: ReadonlyArray<{ readonly node: KubeObject; readonly cursor: string }>;
  readonly pageInfo: PageInfo;
  readonly totalCount: number;
}

/** Cursor is a decoded cursor: a continue token `c`, or the page token `p` and index `i` in that page. */
type Cursor = { readonly c: string } | { readonly p: string; readonly i: number };

/** PageArgs are a connection field's arguments. */
export interface PageArgs {
  readonly first?: number | null;
  readonly after?: string | null;
}

/** listConnection reads one page of CachedObjects as a connection. */
export async function listConnection(read: ReadModel, filter: CachedObjectFilter, args: PageArgs, limits: QueryLimits): Promise<CachedObjectConnection> {
  const first = args.first ?? limits.defaultFirst;
  if (!Number.isInteger(first) || first < 1 || first > limits.maxFirst) {
    throw new AppError('BadRequest', `first must be between 1 and ${limits.maxFirst}`);
  }
  const after = args.after ? decodeCursor(args.after) : undefined;
  const token = after === undefined ? '' : 'c' in after ? after.c : after.p;
  const skip = after !== undefined && 'i' in after ? after.i + 1 : 0;
  const page = await read.listCachedObjects(filter, { limit: first + skip, ...(token ? { continue: token } : {}) });
  const items = page.items.slice(skip);
  const edges = items.map((node, index) => {
    const last = index === items.length - 1;
    const cursor: Cursor = last && page.continue ? { c: page.continue } : { p: token, i: skip + index };
    return { node, cursor: encodeCursor(cursor) };
  });
  const pageInfo: PageInfo = {
    hasNextPage: page.continue !== undefined && page.continue !== '',
    // A valid `after` names an edge, and that edge comes before this page (the page may be empty).
    hasPreviousPage: after !== undefined,
    startCursor: edges[0]?.cursor ?? null,
    endCursor: edges.at(-1)?.cursor ?? null,
  };
  return { edges, pageInfo, totalCount: page.totalCount };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const { c, p, i } = value as { c?: unknown; p?: unknown; i?: unknown };
    if (typeof c === 'string' && c !== '') return { c };
    if (typeof p === 'string' && typeof i === 'number' && Number.isInteger(i) && i >= 0) return { p, i };
  }
  throw new AppError('BadRequest', `after is not a cursor of this list: ${JSON.stringify(text)}`);
}
