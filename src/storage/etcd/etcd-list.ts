// A consistent list of a prefix that may hold a million keys: read in pages, so no answer is one
// huge gRPC message, every page pinned to the revision of the first, so the pages add up to the
// state at one revision. The next page is requested as soon as a page arrives, before the caller's
// reader runs over it: decoding 100k objects (about a second) then overlaps etcd's reading and
// sending of the rest instead of following it. A page that finds its revision compacted (the
// list took longer than the compactor's interval) starts the list over at a new revision.

import type { Etcd3, IKeyValue, IRangeResponse } from 'etcd3';
import { AppError } from '../../errors.js';
import { readEach } from '../backend.js';
import type { BackendList, EntryReader, StoredEntry } from '../backend.js';
import type { EtcdCaller } from './etcd-caller.js';
import { isCompacted } from './etcd-caller.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/** LIST_PAGE_SIZE keeps a page of ~1 KiB objects to a few MiB. */
export const LIST_PAGE_SIZE = 5_000;
const LIST_ATTEMPTS = 3;

/** EtcdListSource is what a list needs from its backend. */
export interface EtcdListSource {
  readonly client: Etcd3;
  readonly keyspace: EtcdKeyspace;
  readonly caller: EtcdCaller;
}

/** listPrefix reads every key under prefix at one revision, in key order, each through read. */
export async function listPrefix<T>(source: EtcdListSource, prefix: string, read: EntryReader<T>): Promise<BackendList<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await listAtOneRevision(source, prefix, read);
    } catch (err) {
      if (!isCompacted(err)) throw err;
      if (attempt === LIST_ATTEMPTS) {
        throw new AppError('ServiceUnavailable', `etcd: the list of ${prefix} was compacted away ${LIST_ATTEMPTS} times while it was read`, {}, { cause: err });
      }
    }
  }
}

async function listAtOneRevision<T>(source: EtcdListSource, prefix: string, read: EntryReader<T>): Promise<BackendList<T>> {
  const { key: start, range_end } = source.keyspace.rangeOf(prefix);
  const pageFrom = (from: Buffer, revision: number): Promise<IRangeResponse> =>
    source.caller.read('list', (options) => source.client.kv.range({ key: from, range_end, limit: LIST_PAGE_SIZE, revision }, options));
  const entries: T[] = [];
  // The first page is read at etcd's current revision; every later page at that same one.
  let page = await pageFrom(start, 0);
  const revision = Number(page.header.revision);
  for (;;) {
    const last = page.kvs.at(-1);
    const next = page.more && last !== undefined ? pageFrom(Buffer.concat([last.key, Buffer.from([0])]), revision) : undefined;
    // A failed prefetch is seen when it is awaited; until then it must not count as unhandled.
    next?.catch(() => undefined);
    readEach(storedEntries(source.keyspace, page.kvs), read, entries);
    if (next === undefined) return { revision, entries };
    page = await next;
  }
}

function storedEntries(keyspace: EtcdKeyspace, kvs: readonly IKeyValue[]): StoredEntry[] {
  const entries: StoredEntry[] = [];
  for (const kv of kvs) {
    if (!keyspace.isReservedEtcdKey(kv.key)) entries.push({ key: keyspace.backendKey(kv.key), value: kv.value.toString(), modRevision: Number(kv.mod_revision) });
  }
  return entries;
}
