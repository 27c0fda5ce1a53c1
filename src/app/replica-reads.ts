// What replicas on one etcd add to reads and writes: consistent reads (a read waits until this
// replica's cache, and the shared overlay, hold everything committed before it began) and, when
// the overlay is on, the overlay shared through etcd, so a write answered by one replica is read
// back through any other.

import type { Logger } from 'pino';
import { ConsistentReads } from '../ha/consistent-reads.js';
import type { FeedProgress, FeedsView } from '../ha/consistent-reads.js';
import { SharedRecords } from '../ha/shared-records.js';
import type { EtcdBackend } from '../storage/etcd/etcd-backend.js';
import type { OverlayRuntime } from './overlay-runtime.js';
import { SharedOverlay } from './shared-overlay.js';

/** OVERLAY_SPACE is where the shared overlay's records live in etcd, beside the stores' spaces. */
const OVERLAY_SPACE = '/overlay/';

/** ReplicaReadsOptions: the etcd backend, this replica's cache position, and the overlay if on. */
export interface ReplicaReadsOptions {
  readonly backend: EtcdBackend;
  readonly cachePosition: FeedProgress;
  readonly sourcePosition: FeedProgress;
  readonly overlay: OverlayRuntime | undefined;
  readonly overlayTtlMs: number;
  readonly waitMs: number;
  readonly leading: () => boolean;
  readonly log: Logger;
}

/** ReplicaReads is the consistency of reads and the shared overlay of one replica. */
export interface ReplicaReads {
  /** consistency is the cache's (and the shared overlay's): facade and cache API reads wait on it. */
  readonly consistency: FeedsView;
  /** sourceConsistency is the embedded source's: its reads and writes wait for other replicas' writes. */
  readonly sourceConsistency: FeedsView;
  /** recorder is what writes record into; undefined when the overlay is off. */
  readonly recorder: SharedOverlay | undefined;
  /** start reads the shared overlay's records and follows them. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** replicaReads wires consistent reads and the shared overlay over the etcd backend. */
export function replicaReads(opts: ReplicaReadsOptions): ReplicaReads {
  const { backend, overlay, log } = opts;
  let recorder: SharedOverlay | undefined;
  const records = overlay === undefined ? undefined : new SharedRecords({
    backend,
    space: OVERLAY_SPACE,
    ttlMs: opts.overlayTtlMs,
    onRecord: (_key, value) => recorder?.apply(value),
    onError: (err) => log.error({ err }, 'a shared overlay record could not be applied'),
  });
  if (overlay !== undefined && records !== undefined) recorder = new SharedOverlay(overlay, records, opts.leading);
  const reads = new ConsistentReads({ currentRevision: () => backend.currentRevision(), barrier: () => backend.barrier(), timeoutMs: opts.waitMs });
  return {
    consistency: reads.over(records === undefined ? [opts.cachePosition] : [opts.cachePosition, records.position]),
    sourceConsistency: reads.over([opts.sourcePosition]),
    recorder,
    start: async () => records?.start(),
    stop: async () => records?.stop(),
  };
}
