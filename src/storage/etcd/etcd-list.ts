// A consistent list of a prefix that may hold a million keys: read in pages, so no answer is one
// huge gRPC message, every page pinned to the revision of the first, so the pages add up to the
// state at one revision. A page of values is bounded by keys learnt from a keys-only walk of the
// same revision (cheap: no values), so several pages are in flight while the caller's reader
// decodes the one before: at 100k objects a page waited on etcd about as long as it took to
// decode, one page at a time. A page that finds its revision compacted (the list took longer
// than the compactor's interval) starts the list over at a new revision.

import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse } from 'etcd3';
import { AppError } from '../../errors.js';
import { readEach } from '../backend.js';
import type { BackendList, EntryReader, StoredEntry } from '../backend.js';
import type { EtcdCaller } from './etcd-caller.js';
import { isCompacted } from './etcd-caller.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/** LIST_PAGE_SIZE keeps a page of ~1 KiB objects to a few MiB. */
export const LIST_PAGE_SIZE = 5_000;
const LIST_ATTEMPTS = 3;
/** PAGES_IN_FLIGHT pages of values are requested ahead of the one being decoded. */
const PAGES_IN_FLIGHT = 3;
/** KEYS_PER_WALK keys (no values: about 100 bytes each) come in one step of the keys-only walk. */
const KEYS_PER_WALK = 50_000;

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

/** listPages reads every key under prefix at one revision, page by page into sink, and resolves with that revision. */
export async function listPages(source: EtcdListSource, prefix: string, sink: PageSink): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pagesAtOneRevision(source, prefix, sink);
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

async function pagesAtOneRevision(source: EtcdListSource, prefix: string, sink: PageSink): Promise<number> {
  const { key: start, range_end } = source.keyspace.rangeOf(prefix);
  const range: RangeCall = (request) => source.caller.read('list', (options) => source.client.kv.range(request, options));
  // The first page is read at etcd's current revision; every later page at that same one.
  const first = await range({ key: start, range_end, limit: LIST_PAGE_SIZE });
  const revision = Number(first.header.revision);
  const last = first.kvs.at(-1);
  const later = first.more && last !== undefined ? laterPages(range, keyAfter(last.key), range_end, revision) : undefined;
  sink.page(storedEntries(source.keyspace, first.kvs));
  if (later !== undefined) for await (const page of later) sink.page(storedEntries(source.keyspace, page.kvs));
  return revision;
}

/** laterPages reads the pages of [from, end) at revision in key order, PAGES_IN_FLIGHT at a time. */
async function* laterPages(range: RangeCall, from: Buffer, end: Buffer, revision: number): AsyncGenerator<IRangeResponse> {
  const inFlight: Promise<IRangeResponse>[] = [];
  for await (const [pageStart, pageEnd] of pageBounds(range, from, end, revision)) {
    const page = range({ key: pageStart, range_end: pageEnd, revision });
    // A failed page is seen when it is awaited; until then it must not count as unhandled.
    page.catch(() => undefined);
    inFlight.push(page);
    if (inFlight.length >= PAGES_IN_FLIGHT) yield await (inFlight.shift() as Promise<IRangeResponse>);
  }
  for (const page of inFlight) yield await page;
}

/** pageBounds walks the keys of [from, end) at revision without their values and cuts them into pages of LIST_PAGE_SIZE keys. */
async function* pageBounds(range: RangeCall, from: Buffer, end: Buffer, revision: number): AsyncGenerator<[Buffer, Buffer]> {
  let pageStart: Buffer | undefined;
  let inPage = 0;
  for (let key = from; ;) {
    const chunk = await range({ key, range_end: end, revision, keys_only: true, limit: KEYS_PER_WALK });
    for (const kv of chunk.kvs) {
      if (pageStart !== undefined && inPage === LIST_PAGE_SIZE) {
        yield [pageStart, kv.key];
        pageStart = undefined;
      }
      if (pageStart === undefined) {
        pageStart = kv.key;
        inPage = 0;
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
