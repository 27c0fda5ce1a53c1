// Reads that ask for `minResourceVersion` (min-resource-version.ts: a write's token
// `<shard>/<cluster>/<group>/<resource>/<rv>`, or `<shard>/<cluster>/<rv>` for every resource of
// the cluster) wait here until the cache has replicated at least that source resourceVersion
// (every one listed must hold; replication-progress.ts decides), polling the replication
// progress every few milliseconds, up to a bound; then they fail with Timeout (504,
// Retry-After: 1). A malformed value is a BadRequest, before any wait.

import { groupResourceKey } from '../apimachinery/gvr.js';
import { AppError } from '../errors.js';
import { parseMinResourceVersion } from './min-resource-version.js';
import type { MinResourceVersion } from './min-resource-version.js';
import type { ReplicationProgress } from './replication-progress.js';

/** ReadWaiterOptions: timeoutMs bounds each wait; pollMs is the polling period; now is a monotonic clock in ms (tests pass a fake one). */
export interface ReadWaiterOptions {
  readonly progress: ReplicationProgress;
  readonly timeoutMs: number;
  readonly pollMs?: number;
  readonly now?: () => number;
}

/** MAX_MIN_RESOURCE_VERSIONS caps how many values one read may list. */
export const MAX_MIN_RESOURCE_VERSIONS = 64;
const DEFAULT_POLL_MS = 5;

/** ReadWaiter waits for replication progress on behalf of reads. */
export class ReadWaiter {
  readonly #progress: ReplicationProgress;
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  readonly #now: () => number;

  constructor(opts: ReadWaiterOptions) {
    this.#progress = opts.progress;
    this.#timeoutMs = opts.timeoutMs;
    this.#pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.#now = opts.now ?? (() => performance.now());
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
    const pending = (): MinResourceVersion | undefined => wanted.find((w) => !this.#progress.hasReplicated(w));
    let missing = pending();
    if (missing === undefined) return;
    const deadline = this.#now() + this.#timeoutMs;
    while (this.#now() < deadline) {
      await sleep(Math.min(this.#pollMs, Math.max(0, deadline - this.#now())));
      missing = pending();
      if (missing === undefined) return;
    }
    throw new AppError(
      'Timeout',
      `the cache has not replicated resourceVersion ${missing.resourceVersion} of ${scopeOf(missing)} within ${this.#timeoutMs} ms; retry later`,
      { retryAfterSeconds: 1 },
    );
  }
}

/** scopeOf says what a token waits for, for the Timeout message. */
function scopeOf(wanted: MinResourceVersion): string {
  const where = `shard "${wanted.shard}" cluster "${wanted.cluster}"`;
  return wanted.resource === undefined ? where : `${groupResourceKey(wanted.resource)} in ${where}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
