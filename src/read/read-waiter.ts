// Reads that ask for `minResourceVersion=<shard>/<cluster>/<rv>` wait here until the cache has
// replicated at least that source resourceVersion of that logical cluster (every one listed must
// hold), polling the replication progress every few milliseconds, up to a bound; then they fail
// with Timeout (504, Retry-After: 1). A malformed value is a BadRequest.

import { LOGICAL_CLUSTER_NAME_PATTERN } from '../apimachinery/logical-cluster.js';
import { AppError } from '../errors.js';
import type { ReplicationProgress } from './replication-progress.js';

/** MinResourceVersion is one parsed `<shard>/<cluster>/<rv>`. */
export interface MinResourceVersion {
  readonly shard: string;
  readonly cluster: string;
  readonly resourceVersion: bigint;
}

/** ReadWaiterOptions: timeoutMs bounds each wait; pollMs is the polling period. */
export interface ReadWaiterOptions {
  readonly progress: ReplicationProgress;
  readonly timeoutMs: number;
  readonly pollMs?: number;
}

/** MAX_MIN_RESOURCE_VERSIONS caps how many values one read may list. */
export const MAX_MIN_RESOURCE_VERSIONS = 64;
const DEFAULT_POLL_MS = 5;
const DECIMAL = /^[0-9]{1,40}$/;
// The cluster must be a logical cluster name: `*` or any other value could never be replicated, so
// a read naming one would only wait out the bound and fail with 504 for what is the client's mistake.

/** parseMinResourceVersion parses `<shard>/<cluster>/<rv>` (rv decimal); anything else is a BadRequest. */
export function parseMinResourceVersion(value: string): MinResourceVersion {
  const parts = value.split('/');
  const [shard, cluster, rv] = parts;
  if (parts.length !== 3 || !shard || !cluster || !LOGICAL_CLUSTER_NAME_PATTERN.test(cluster) || rv === undefined || !DECIMAL.test(rv)) {
    throw new AppError('BadRequest', `invalid minResourceVersion "${value}": want <shard>/<cluster>/<resourceVersion> with a logical cluster name and a decimal resourceVersion`, {
      causes: [{ reason: 'FieldValueInvalid', field: 'minResourceVersion', message: `invalid value "${value}"` }],
    });
  }
  return { shard, cluster, resourceVersion: BigInt(rv) };
}

/** ReadWaiter waits for replication progress on behalf of reads. */
export class ReadWaiter {
  readonly #progress: ReplicationProgress;
  readonly #timeoutMs: number;
  readonly #pollMs: number;

  constructor(opts: ReadWaiterOptions) {
    this.#progress = opts.progress;
    this.#timeoutMs = opts.timeoutMs;
    this.#pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
  }

  /**
   * waitFor resolves once every value holds (at once when none is given); it rejects with
   * BadRequest for a malformed value and with Timeout when the bound passes first.
   */
  async waitFor(values: readonly string[]): Promise<void> {
    if (values.length === 0) return;
    if (values.length > MAX_MIN_RESOURCE_VERSIONS) {
      throw new AppError('BadRequest', `at most ${MAX_MIN_RESOURCE_VERSIONS} minResourceVersion values are allowed, got ${values.length}`);
    }
    const wanted = values.map(parseMinResourceVersion);
    const pending = (): MinResourceVersion | undefined => wanted.find((w) => !this.#progress.hasReplicated(w.shard, w.cluster, w.resourceVersion));
    let missing = pending();
    if (missing === undefined) return;
    const deadline = performance.now() + this.#timeoutMs;
    while (performance.now() < deadline) {
      await sleep(Math.min(this.#pollMs, Math.max(0, deadline - performance.now())));
      missing = pending();
      if (missing === undefined) return;
    }
    const { shard, cluster, resourceVersion } = missing;
    throw new AppError(
      'Timeout',
      `the cache has not replicated resourceVersion ${resourceVersion} of shard "${shard}" cluster "${cluster}" within ${this.#timeoutMs} ms; retry later`,
      { retryAfterSeconds: 1 },
    );
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
