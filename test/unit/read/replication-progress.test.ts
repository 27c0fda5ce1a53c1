// The replication progress rule behind minResourceVersion, and the waiter that polls it, with
// plain objects: which controllers a token counts (those of its resource; every one for the
// 3-part form), never "replicated" with a busy or behind counted controller, a CCR whose
// controller has not started, CCRs not listed yet, or a non-numeric resourceVersion; at once when
// nothing replicates what the token names.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import type { GroupResource } from '../../../src/apimachinery/gvr.js';
import { ReadWaiter } from '../../../src/read/read-waiter.js';
import { replicatedAtLeast } from '../../../src/read/replication-progress.js';
import type { ChildProgress, ClusterProgress } from '../../../src/read/replication-progress.js';
import { WorkQueue } from '../../../src/controllers/runtime/work-queue.js';

const INSTANCES: GroupResource = { group: 'machines.svm.io', resource: 'instances' };
const WIDGETS: GroupResource = { group: 'machines.svm.io', resource: 'widgets' };
const CONFIGMAPS: GroupResource = { group: '', resource: 'configmaps' };
const SECRETS: GroupResource = { group: '', resource: 'secrets' };

const child = (resource: GroupResource, resourceVersion: string, idle = true): ChildProgress => ({ resource, resourceVersion, idle });
const cluster = (ccrs: GroupResource[], children: ChildProgress[], ccrsListed = true): ClusterProgress => ({ ccrsListed, ccrs, children });

// Two CCRs: instances caught up with the write (rv 20), widgets quiet since its list (rv 5).
const QUIET = cluster([INSTANCES, WIDGETS], [child(INSTANCES, '20'), child(WIDGETS, '5')]);

describe('replicatedAtLeast: which controllers a token counts, and when they hold', () => {
  it.each<[string, ClusterProgress, GroupResource | undefined, bigint, boolean]>([
    ['case 1: the written resource caught up holds, though another resource of the cluster is quiet', QUIET, INSTANCES, 20n, true],
    ['case 2: the 3-part form counts every controller: the quiet one holds it back', QUIET, undefined, 20n, false],
    ['case 3: the quiet resource named itself waits for its own controller', QUIET, WIDGETS, 20n, false],
    ['case 4: the written resource behind does not hold', QUIET, INSTANCES, 21n, false],
    ['case 5: the written resource busy does not hold', cluster([INSTANCES], [child(INSTANCES, '30', false)]), INSTANCES, 20n, false],
    ['case 6: a resource no CCR of the cluster names: nothing will replicate it, holds at once', QUIET, CONFIGMAPS, 999n, true],
    ['case 7: the 3-part form in a cluster with no CCR: nothing to wait for, holds at once', cluster([], []), undefined, 999n, true],
    ['case 8: CCRs not listed yet: nothing is known, never holds', cluster([], [], false), CONFIGMAPS, 1n, false],
    ['case 9: a CCR of the resource whose controller has not started holds it back', cluster([INSTANCES, WIDGETS], [child(WIDGETS, '50')]), INSTANCES, 1n, false],
    ['case 10: ... but not a token for another resource', cluster([INSTANCES, WIDGETS], [child(WIDGETS, '50')]), WIDGETS, 50n, true],
    ['case 11: ... and it holds the 3-part form back', cluster([INSTANCES, WIDGETS], [child(WIDGETS, '50')]), undefined, 1n, false],
    ['case 12: a second CCR of the same resource (a Duplicate, no controller) does not hold it back',
      cluster([INSTANCES, INSTANCES], [child(INSTANCES, '20')]), INSTANCES, 20n, true],
    ['case 13: the core group, written \'\' or core on either side, is one group',
      cluster([{ group: 'core', resource: 'configmaps' }], [child(CONFIGMAPS, '20')]), { group: 'core', resource: 'configmaps' }, 20n, true],
    ['case 14: same resource name in another group is another resource',
      cluster([{ group: 'other.io', resource: 'secrets' }], [child({ group: 'other.io', resource: 'secrets' }, '1')]), SECRETS, 20n, true],
    ['case 15: a controller of a CCR being deleted (no longer listed) still counts while it runs',
      cluster([], [child(INSTANCES, '10')]), INSTANCES, 20n, false],
    ['case 16: numeric comparison, not string comparison (9 < 10)', cluster([INSTANCES], [child(INSTANCES, '9')]), INSTANCES, 10n, false],
    ['case 17: numeric comparison, not string comparison (100 ≥ 99)', cluster([INSTANCES], [child(INSTANCES, '100')]), INSTANCES, 99n, true],
    ['case 18: 30-digit resourceVersions compare exactly',
      cluster([INSTANCES], [child(INSTANCES, '123456789012345678901234567890')]), INSTANCES, 123456789012345678901234567889n, true],
    ['case 19: a controller not listed yet (\'\') never counts', cluster([INSTANCES], [child(INSTANCES, '')]), INSTANCES, 0n, false],
    ['case 20: an opaque resourceVersion never counts', cluster([INSTANCES], [child(INSTANCES, 'abc')]), INSTANCES, 0n, false],
  ])('%s', (_name, progress, resource, resourceVersion, holds) => {
    expect(replicatedAtLeast(progress, { ...(resource ? { resource } : {}), resourceVersion })).toBe(holds);
  });
});

/** outcome follows a promise: undefined while pending, then 'resolved' or the rejection. */
function outcome(pending: Promise<unknown>): () => unknown {
  let settled: unknown;
  pending.then(() => (settled = 'resolved'), (err: unknown) => (settled = err));
  return () => settled;
}

describe('ReadWaiter (fake timers: the test moves the clock)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 21: resolves at once when none is given or all hold; waits until progress is made, then resolves at the next poll; hands the parsed token over', async () => {
    let reached = 0n;
    const asked: string[] = [];
    const waiter = new ReadWaiter({
      timeoutMs: 2000, pollMs: 5, now: () => Date.now(),
      progress: { hasReplicated: (wanted) => {
        asked.push(`${wanted.cluster}:${wanted.resource?.group ?? '*'}/${wanted.resource?.resource ?? '*'}`);
        return reached >= wanted.resourceVersion;
      } },
    });
    const none = outcome(waiter.waitFor([]));
    await vi.advanceTimersByTimeAsync(0);
    expect(none()).toBe('resolved');
    const waiting = outcome(waiter.waitFor(['s/root/core/configmaps/7', 's/other/3']));
    await vi.advanceTimersByTimeAsync(1000);
    expect(waiting()).toBeUndefined();
    reached = 7n;
    await vi.advanceTimersByTimeAsync(5);
    expect(waiting()).toBe('resolved');
    expect(asked).toContain('root:/configmaps');
    expect(asked).toContain('other:*/*');
    const alreadyThere = outcome(waiter.waitFor(['s/root/core/configmaps/7']));
    await vi.advanceTimersByTimeAsync(0);
    expect(alreadyThere()).toBe('resolved');
  });

  it('case 22: rejects with Timeout (retry after 1 s) at the bound, not before, naming the resource; BadRequest before waiting', async () => {
    const waiter = new ReadWaiter({ timeoutMs: 2000, pollMs: 5, now: () => Date.now(), progress: { hasReplicated: () => false } });
    const waiting = outcome(waiter.waitFor(['s/root/machines.svm.io/instances/1']));
    await vi.advanceTimersByTimeAsync(1995);
    expect(waiting()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(5);
    const err = waiting();
    expect(isAppError(err, 'Timeout')).toBe(true);
    expect(isAppError(err) && err.details.retryAfterSeconds).toBe(1);
    expect((err as Error).message).toContain('instances.machines.svm.io in shard "s" cluster "root"');
    expect((err as Error).message).toContain('within 2000 ms');
    const bad = outcome(waiter.waitFor(['s/root/1', 'junk']));
    await vi.advanceTimersByTimeAsync(0);
    expect(isAppError(bad(), 'BadRequest')).toBe(true);
  });
});

describe('WorkQueue.isIdle', () => {
  it('case 23: not idle while an item is queued, held by a worker, or waiting for a retry', async () => {
    const queue = new WorkQueue({ name: 'test' });
    expect(queue.isIdle()).toBe(true);
    queue.add('a');
    expect(queue.isIdle()).toBe(false);
    const item = await queue.get();
    expect(queue.isIdle()).toBe(false);
    queue.done(item!);
    expect(queue.isIdle()).toBe(true);
    queue.addAfter('b', 60_000);
    expect(queue.isIdle()).toBe(false);
    queue.shutDown();
  });
});
