// The replication progress rule behind minResourceVersion, and the waiter that polls it, with
// plain objects: never "replicated" without a child, with a busy or behind child, with fewer
// children than CCRs, or with a non-numeric resourceVersion.

import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { ReadWaiter, parseMinResourceVersion } from '../../../src/read/read-waiter.js';
import { replicatedAtLeast } from '../../../src/read/replication-progress.js';
import { WorkQueue } from '../../../src/controllers/runtime/work-queue.js';

const child = (resourceVersion: string, idle = true): { resourceVersion: string; idle: boolean } => ({ resourceVersion, idle });

describe('replicatedAtLeast', () => {
  it('case 1: no child (no CCR in the cluster) never holds', () => {
    expect(replicatedAtLeast({ ccrs: 0, children: [] }, 1n)).toBe(false);
    expect(replicatedAtLeast({ ccrs: 1, children: [] }, 0n)).toBe(false);
  });

  it('case 2: every idle child at or past the resourceVersion holds; equal counts', () => {
    expect(replicatedAtLeast({ ccrs: 2, children: [child('10'), child('12')] }, 10n)).toBe(true);
    expect(replicatedAtLeast({ ccrs: 1, children: [child('10')] }, 9n)).toBe(true);
  });

  it('case 3: one child behind, or busy, holds the whole cluster back', () => {
    expect(replicatedAtLeast({ ccrs: 2, children: [child('10'), child('9')] }, 10n)).toBe(false);
    expect(replicatedAtLeast({ ccrs: 2, children: [child('10'), child('11', false)] }, 10n)).toBe(false);
  });

  it('case 4: numeric comparison, not string comparison', () => {
    expect(replicatedAtLeast({ ccrs: 1, children: [child('9')] }, 10n)).toBe(false);
    expect(replicatedAtLeast({ ccrs: 1, children: [child('100')] }, 99n)).toBe(true);
    expect(replicatedAtLeast({ ccrs: 1, children: [child('123456789012345678901234567890')] }, 123456789012345678901234567889n)).toBe(true);
  });

  it('case 5: a child without a numeric resourceVersion (not listed yet, or opaque) never counts', () => {
    expect(replicatedAtLeast({ ccrs: 1, children: [child('')] }, 0n)).toBe(false);
    expect(replicatedAtLeast({ ccrs: 1, children: [child('abc')] }, 0n)).toBe(false);
  });

  it('case 6: a CCR whose child has not started yet holds the cluster back', () => {
    expect(replicatedAtLeast({ ccrs: 2, children: [child('10')] }, 5n)).toBe(false);
  });
});

describe('parseMinResourceVersion and ReadWaiter', () => {
  it('case 7: parses <shard>/<cluster>/<rv> and refuses anything else with BadRequest', () => {
    expect(parseMinResourceVersion('s/root:org/42')).toEqual({ shard: 's', cluster: 'root:org', resourceVersion: 42n });
    for (const bad of ['', 's/root', 's/root/', 's//1', '/root/1', 's/root/1/2', 's/root/x', 's/root/-1', 's/root/ 1',
      // Found by the fuzz test: a wildcard or invalid cluster could never hold, so it waited out the bound for a 504.
      's/*/1', 's/Root/1', 's/root-/1']) {
      expect(() => parseMinResourceVersion(bad), bad).toThrow(expect.objectContaining({ code: 'BadRequest' }) as Error);
    }
  });

  it('case 8: resolves at once when none is given or all hold; early once progress is made', async () => {
    let reached = 0n;
    const waiter = new ReadWaiter({ timeoutMs: 2000, pollMs: 1, progress: { hasReplicated: (_s, _c, rv) => reached >= rv } });
    await waiter.waitFor([]);
    const started = performance.now();
    setTimeout(() => { reached = 7n; }, 30);
    await waiter.waitFor(['s/root/7', 's/other/3']);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('case 9: rejects with Timeout (retry after 1 s) at the bound; BadRequest before waiting', async () => {
    const waiter = new ReadWaiter({ timeoutMs: 50, pollMs: 1, progress: { hasReplicated: () => false } });
    const started = performance.now();
    const err: unknown = await waiter.waitFor(['s/root/1']).catch((e: unknown) => e);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(isAppError(err, 'Timeout')).toBe(true);
    expect(isAppError(err) && err.details.retryAfterSeconds).toBe(1);
    const bad: unknown = await waiter.waitFor(['s/root/1', 'junk']).catch((e: unknown) => e);
    expect(isAppError(bad, 'BadRequest')).toBe(true);
  });
});

describe('WorkQueue.isIdle', () => {
  it('case 10: not idle while an item is queued, held by a worker, or waiting for a retry', async () => {
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
