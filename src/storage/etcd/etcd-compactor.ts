// etcd keeps every revision until it is compacted. Like kube-apiserver, each backend runs a
// compactor that, every interval, compacts etcd to the revision it saw one interval earlier, so
// about one interval of history is always kept for feeds that resume. The processes that share a
// prefix agree through one key, COMPACT_REV_KEY: its version is their logical clock. A tick puts
// the key only if its version is still the one this compactor last saw, and only the process whose
// put held compacts; the others learn the new version and try again a tick later. So one process
// compacts per interval, and if it dies another takes over within two intervals.

import type { Etcd3, ITxnResponse } from 'etcd3';
import type { EtcdCaller } from './etcd-caller.js';
import { isCompacted } from './etcd-caller.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/** EtcdCompactorSource is what the compactor needs from its backend. */
export interface EtcdCompactorSource {
  readonly client: Etcd3;
  readonly keyspace: EtcdKeyspace;
  readonly caller: EtcdCaller;
}

/** CompactionStatus is what the compactor last did: the revision etcd is compacted to, as far as it knows, and its last failure. */
export interface CompactionStatus {
  readonly revision: number;
  readonly error?: string;
}

/** EtcdCompactor compacts etcd every interval to the revision of the previous tick. */
export class EtcdCompactor {
  private compactedRevision = 0;
  private lastError: string | undefined;
  /** clock is the version of the compaction key this compactor last saw (0: the key is absent). */
  private clock = 0;
  /** previousRevision is etcd's revision at the previous tick: the next compaction's target. */
  private previousRevision = 0;
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly source: EtcdCompactorSource, intervalMs: number) {
    this.timer = setInterval(() => {
      // A tick still waiting for etcd is not doubled up.
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  /** status is the revision compacted to (by this process or, as the shared key says, another) and the last tick's failure. */
  status(): CompactionStatus {
    return this.lastError === undefined ? { revision: this.compactedRevision } : { revision: this.compactedRevision, error: this.lastError };
  }

  /** stop ends the ticks and waits for one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      const target = await this.advanceClock();
      if (target > 0) await this.compact(target);
      this.lastError = undefined;
    } catch (err) {
      // The next tick tries again; until then status() (and health(), if etcd is unreachable) says why.
      this.lastError = err instanceof Error ? err.message : String(err);
    }
  }

  /**
   * advanceClock moves the shared clock on if it is still where this compactor saw it. It returns
   * the revision this compactor must now compact to, 0 when another process moved the clock first
   * (or on the first tick, which only records where etcd is).
   */
  private async advanceClock(): Promise<number> {
    const key = this.source.keyspace.compactKey();
    const target = this.previousRevision;
    const response: ITxnResponse = await this.source.caller.write('compaction', (options) => this.source.client.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: this.clock }],
      success: [{ request_put: { key, value: Buffer.from(String(target)) } }],
      failure: [{ request_range: { key } }],
    }, options));
    this.previousRevision = Number(response.header.revision);
    if (!response.succeeded) {
      const current = response.responses[0]?.response_range.kvs[0];
      this.clock = Number(current?.version ?? 0);
      this.compactedRevision = Math.max(this.compactedRevision, Number(current?.value.toString() ?? 0) || 0);
      return 0;
    }
    this.clock += 1;
    return target;
  }

  private async compact(revision: number): Promise<void> {
    try {
      await this.source.caller.write('compaction', (options) => this.source.client.kv.compact({ revision }, options));
      this.compactedRevision = revision;
    } catch (err) {
      // Another prefix's compactor on the same etcd got there first: the history is gone either way.
      if (!isCompacted(err)) throw err;
      this.compactedRevision = Math.max(this.compactedRevision, revision);
    }
  }
}
