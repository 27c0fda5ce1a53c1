// A consistent list of a prefix that may hold a million keys: read in pages, so no answer is one
// huge gRPC message, every page pinned to the revision of the first, so the pages add up to the
// state at one revision. A page of values is bounded by keys learnt from a keys-only walk of the
// same revision (cheap: no values), so several pages are in flight while the caller's reader
// decodes the one before: at 100k objects a page waited on etcd about as long as it took to
// decode, one page at a time. A page that finds its revision compacted (the list took longer
// than the compactor's interval) starts the list over at a new revision.
//
// Pages are bounded by bytes as well as by keys: the keys-only walk cannot see value sizes, so
// the first page is small and each later page is cut to LIST_PAGE_BYTES at the average value size
// of the last page received. 5,000 values of 200 KB would be a 1 GB page (and several in flight),
// more than the client thread's heap may hold; 5,000 of 1 KB are 5 MB.

import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse } from 'etcd3';
import { AppError } from '../../errors.js';
import { readEach } from '../backend.js';
import type { BackendList, EntryReader, StoredEntry } from '../backend.js';
import type { EtcdCaller } from './etcd-caller.js';
import { isCompacted } from './etcd-caller.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/** LIST_PAGE_SIZE keeps a page of ~1 KiB objects to a few MiB; it is the most keys a page holds. */
export const LIST_PAGE_SIZE = 5_000;
/** LIST_PAGE_BYTES is the size later pages are cut to, at the average value size of the last page received. */
export const LIST_PAGE_BYTES = 16 * 2 ** 20;
/** FIRST_PAGE_SIZE: the first page learns the value size; 64 of etcd's largest values (1.5 MiB) are under 100 MB. */
const FIRST_PAGE_SIZE = 64;
const LIST_ATTEMPTS = 3;
/** PAGES_IN_FLIGHT pages of values are requested ahead of the one being decoded. */
const PAGES_IN_FLIGHT = 3;
/** KEYS_PER_WALK keys (no values: about 100 bytes each) come in one step of the keys-only walk. */
const KEYS_PER_WALK = 50_000;

/** PageLimits bound a list's pages: most keys, and bytes (at the last page's average value size). */
export interface PageLimits {
  readonly keys: number;
  readonly bytes: number;
}

const DEFAULT_LIMITS: PageLimits = { keys: LIST_PAGE_SIZE, bytes: LIST_PAGE_BYTES };

/** EtcdListSource is what a list needs from its backend. */
export interface EtcdListSource {
  readonly client: Etcd3;
  readonly keyspace: EtcdKeyspace;
  readonly caller: EtcdCaller;
}

/** listPrefix reads every key under prefix at one revision, in key order, each through read. */
export async function listPrefix<T>(source: EtcdListSource, prefix: string, read: EntryReader<T>): Promise<BackendList<T>> {
  let entries: T[] = [];
  const revision = await listPages(source, prefix, {
    page: (page) => void readEach(page, read, entries),
    restart: () => (entries = []),
  });
  return { revision, entries };
}

/**
 * PageSink hears a list page by page: page for each page in key order, restart when the list
 * starts over at a new revision (every page before it is void).
 */
export interface PageSink {
  readonly page: (entries: StoredEntry[]) => void;
  readonly restart: () => void;
}

/** listPages reads every key under prefix at one revision, page by page into sink (pages within limits), and resolves with that revision. */
export async function listPages(source: EtcdListSource, prefix: string, sink: PageSink, limits: PageLimits = DEFAULT_LIMITS): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pagesAtOneRevision(source, prefix, sink, limits);
    } catch (err) {
      if (!isCompacted(err)) throw err;
      if (attempt === LIST_ATTEMPTS) {
        throw new AppError('ServiceUnavailable', `etcd: the list of ${prefix} was compacted away ${LIST_ATTEMPTS} times while it was read`, {}, { cause: err });
      }
      sink.restart();
    }
  }
}

type RangeCall = (request: IRangeRequest) => Promise<IRangeResponse>;

/**
 * PageSizer sizes the next page from the last page received: values of one resource sit together
 * in the key space, so the last page says more about the next than the whole list so far. Pages
 * are cut a few ahead of the ones received (PAGES_IN_FLIGHT), so a change of sizes is followed
 * a few pages late; until then a page holds at most `limits.keys` values, as without a byte bound.
 */
class PageSizer {
  private averageBytes = 0;

  constructor(private readonly limits: PageLimits) {}

  saw(kvs: readonly IKeyValue[]): void {
    if (kvs.length === 0) return;
    let bytes = 0;
    for (const kv of kvs) bytes += kv.key.length + kv.value.length;
    this.averageBytes = bytes / kvs.length;
  }

  /** keys is how many keys the next page may hold: bytes ÷ the average entry, within [1, limits.keys]. */
  keys(): number {
    if (this.averageBytes === 0) return this.limits.keys;
    return Math.max(1, Math.min(this.limits.keys, Math.floor(this.limits.bytes / this.averageBytes)));
  }
}

async function pagesAtOneRevision(source: EtcdListSource, prefix: string, sink: PageSink, limits: PageLimits): Promise<number> {
  const { key: start, range_end } = source.keyspace.rangeOf(prefix);
  const range: RangeCall = (request) => source.caller.read('list', (options) => source.client.kv.range(request, options));
  // The first page is read at etcd's current revision; every later page at that same one.
  const first = await range({ key: start, range_end, limit: Math.min(FIRST_PAGE_SIZE, limits.keys) });
  const revision = Number(first.header.revision);
  const sizer = new PageSizer(limits);
  sizer.saw(first.kvs);
  const last = first.kvs.at(-1);
  const later = first.more && last !== undefined ? laterPages(range, keyAfter(last.key), range_end, revision, () => sizer.keys()) : undefined;
  sink.page(storedEntries(source.keyspace, first.kvs));
  if (later === undefined) return revision;
  for await (const page of later) {
    sizer.saw(page.kvs);
    sink.page(storedEntries(source.keyspace, page.kvs));
  }
  return revision;
}

/** laterPages reads the pages of [from, end) at revision in key order, PAGES_IN_FLIGHT at a time. */
async function* laterPages(range: RangeCall, from: Buffer, end: Buffer, revision: number, pageKeys: () => number): AsyncGenerator<IRangeResponse> {
  const inFlight: Promise<IRangeResponse>[] = [];
  for await (const [pageStart, pageEnd] of pageBounds(range, from, end, revision, pageKeys)) {
    const page = range({ key: pageStart, range_end: pageEnd, revision });
    // A failed page is seen when it is awaited; until then it must not count as unhandled.
    page.catch(() => undefined);
    inFlight.push(page);
    if (inFlight.length >= PAGES_IN_FLIGHT) yield await (inFlight.shift() as Promise<IRangeResponse>);
  }
  for (const page of inFlight) yield await page;
}

/** pageBounds walks the keys of [from, end) at revision without their values and cuts them into pages of pageKeys() keys each. */
async function* pageBounds(range: RangeCall, from: Buffer, end: Buffer, revision: number, pageKeys: () => number): AsyncGenerator<[Buffer, Buffer]> {
  let pageStart: Buffer | undefined;
  let inPage = 0;
  let size = pageKeys();
  for (let key = from; ;) {
    const chunk = await range({ key, range_end: end, revision, keys_only: true, limit: KEYS_PER_WALK });
    for (const kv of chunk.kvs) {
      if (pageStart !== undefined && inPage >= size) {
        yield [pageStart, kv.key];
        pageStart = undefined;
      }
      if (pageStart === undefined) {
        pageStart = kv.key;
        inPage = 0;
        size = pageKeys();
      }
      inPage++;
    }
    const lastKey = chunk.kvs.at(-1)?.key;
    if (!chunk.more || lastKey === undefined) break;
    key = keyAfter(lastKey);
  }
  if (pageStart !== undefined) yield [pageStart, end];
}

/** keyAfter is the smallest key greater than key. */
function keyAfter(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.from([0])]);
}

function storedEntries(keyspace: EtcdKeyspace, kvs: readonly IKeyValue[]): StoredEntry[] {
  const entries: StoredEntry[] = [];
  for (const kv of kvs) {
    if (!keyspace.isReservedEtcdKey(kv.key)) entries.push({ key: keyspace.backendKey(kv.key), value: kv.value.toString(), modRevision: Number(kv.mod_revision) });
  }
  return entries;
}
