// Consistent reads against fake feeds and a fake backend revision (pure logic, no etcd):
//   case 1: feeds already at the revision: answered without a barrier
//   case 2: a feed behind that catches up by itself within the grace: no barrier
//   case 3: a feed behind with nothing to come (another prefix moved the revision): one barrier moves it
//   case 4: reads that arrive while a revision request is on its way share the next one, not that one
//   case 5: a feed that never catches up: Timeout (504) with Retry-After 1, naming both revisions
//   case 6: a failing revision request fails the reads that shared it, and the next read asks again
//   case 7: a revision request etcd does not answer fails the read with Timeout at the bound

import { describe, expect, it } from 'vitest';
import { ConsistentReads } from '../../../src/ha/consistent-reads.js';
import type { FeedProgress, FeedsView } from '../../../src/ha/consistent-reads.js';
import { AppError } from '../../../src/errors.js';

/** FakeFeed applies what it is told to, and wakes waiters as a store feed does. */
class FakeFeed implements FeedProgress {
  #applied: number;
  readonly #waiters: Array<{ revision: number; resolve: () => void }> = [];
  constructor(applied: number) {
    this.#applied = applied;
  }
  revision(): number {
    return this.#applied;
  }
  reach(revision: number, timeoutMs: number): Promise<void> {
    if (revision <= this.#applied) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ revision, resolve });
      setTimeout(resolve, timeoutMs).unref();
    });
  }
  apply(revision: number): void {
    this.#applied = Math.max(this.#applied, revision);
    for (const waiter of this.#waiters) if (waiter.revision <= revision) waiter.resolve();
  }
}

/** Backend is a fake revision counter whose barrier writes and delivers to every feed. */
class Backend {
  revision: number;
  revisionCalls = 0;
  barriers = 0;
  failNext = false;
  constructor(revision: number, readonly feeds: FakeFeed[]) {
    this.revision = revision;
  }
  async currentRevision(): Promise<number> {
    this.revisionCalls++;
    await Promise.resolve();
    if (this.failNext) {
      this.failNext = false;
      throw new AppError('ServiceUnavailable', 'etcd: no member answers');
    }
    return this.revision;
  }
  async barrier(): Promise<number> {
    this.barriers++;
    const revision = ++this.revision;
    queueMicrotask(() => this.feeds.forEach((feed) => feed.apply(revision)));
    return revision;
  }
}

function reads(backend: Backend, timeoutMs = 60_000, barrierAfterMs = 10): FeedsView {
  return new ConsistentReads({
    currentRevision: () => backend.currentRevision(),
    barrier: () => backend.barrier(),
    timeoutMs,
    barrierAfterMs,
  }).over(backend.feeds);
}

describe('ConsistentReads', () => {
  it('case 1: feeds at the revision answer without a barrier', async () => {
    const backend = new Backend(7, [new FakeFeed(7), new FakeFeed(7)]);
    await reads(backend).wait();
    expect(backend.barriers).toBe(0);
  });

  it('case 2: a feed that catches up by itself within the grace needs no barrier', async () => {
    const behind = new FakeFeed(5);
    const backend = new Backend(9, [behind, new FakeFeed(9)]);
    const waiting = reads(backend, 60_000, 60_000).wait();
    setImmediate(() => behind.apply(9));
    await waiting;
    expect(backend.barriers).toBe(0);
  });

  it('case 3: a feed with nothing to come is moved by one barrier', async () => {
    const idle = new FakeFeed(5);
    const backend = new Backend(9, [idle, new FakeFeed(9)]);
    await reads(backend, 60_000, 0).wait();
    expect(backend.barriers).toBe(1);
    expect(idle.revision()).toBeGreaterThanOrEqual(9);
  });

  it('case 4: reads arriving while a revision request is on its way share the next one', async () => {
    const backend = new Backend(3, [new FakeFeed(100)]);
    const consistent = reads(backend);
    const first = consistent.wait();
    const joined = [consistent.wait(), consistent.wait(), consistent.wait()];
    await Promise.all([first, ...joined]);
    expect(backend.revisionCalls).toBe(2);
  });

  it('case 5: a feed that never catches up times out with Retry-After 1', async () => {
    const stuck = new FakeFeed(4);
    const backend = new Backend(9, [stuck]);
    backend.barrier = async () => ++backend.revision; // delivered to no feed: a broken watch
    const err = await reads(backend, 50, 0).wait().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('Timeout');
    expect((err as AppError).details?.retryAfterSeconds).toBe(1);
    expect((err as AppError).message).toContain('revision 9 (it is at 4)');
  });

  it('case 6: a failed revision request fails its reads, and the next read asks again', async () => {
    const backend = new Backend(2, [new FakeFeed(2)]);
    const consistent = reads(backend);
    backend.failNext = true;
    await expect(consistent.wait()).rejects.toMatchObject({ code: 'ServiceUnavailable' });
    await consistent.wait();
    expect(backend.revisionCalls).toBe(2);
  });

  it('case 7: a revision request that is never answered fails the read with Timeout at its bound', async () => {
    const backend = new Backend(2, [new FakeFeed(2)]);
    backend.currentRevision = () => new Promise<number>(() => undefined);
    const err = await reads(backend, 50).wait().catch((e: unknown) => e);
    expect((err as AppError).code).toBe('Timeout');
    expect((err as AppError).message).toContain('etcd did not give its current revision within 50 ms');
  });
});
