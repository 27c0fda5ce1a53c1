// A consistent list of a prefix that may hold a million keys: read in pages, so no answer is one
// huge gRPC message, every page pinned to the revision of the first, so the pages add up to the
// state at one revision. A page that finds its revision compacted (the list took longer than the
// compactor's interval) starts the list over at a new revision.

import type { Etcd3, IKeyValue } from 'etcd3';
import { AppError } from '../../errors.js';
import type { BackendList, StoredEntry } from '../backend.js';
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

/** listPrefix reads every key under prefix at one revision, in key order. */
export async function listPrefix(source: EtcdListSource, prefix: string): Promise<BackendList> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await listAtOneRevision(source, prefix);
    } catch (err) {
      if (!isCompacted(err)) throw err;
      if (attempt === LIST_ATTEMPTS) {
        throw new AppError('ServiceUnavailable', `etcd: the list of ${prefix} was compacted away ${LIST_ATTEMPTS} times while it was read`, {}, { cause: err });
      }
    }
  }
}

async function listAtOneRevision(source: EtcdListSource, prefix: string): Promise<BackendList> {
  const { key: start, range_end } = source.keyspace.rangeOf(prefix);
  const entries: StoredEntry[] = [];
  let revision = 0;
  for (let from = start; ;) {
    const page = await source.caller.read('list', (options) => source.client.kv.range({
      key: from, range_end, limit: LIST_PAGE_SIZE, revision,
    }, options));
    // The first page is read at etcd's current revision; every later page at that same one.
    if (revision === 0) revision = Number(page.header.revision);
    for (const kv of page.kvs) {
      if (!source.keyspace.isReservedEtcdKey(kv.key)) entries.push(entryOf(source.keyspace, kv));
    }
    const last = page.kvs.at(-1);
    if (!page.more || last === undefined) return { revision, entries };
    from = Buffer.concat([last.key, Buffer.from([0])]);
  }
}

function entryOf(keyspace: EtcdKeyspace, kv: IKeyValue): StoredEntry {
  return { key: keyspace.backendKey(kv.key), value: kv.value.toString(), modRevision: Number(kv.mod_revision) };
}
