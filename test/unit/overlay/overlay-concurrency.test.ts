// 8 writers × 50 rounds on one object, as in the seed's concurrency test, against a fake source
// (a resourceVersion counter) and a fake cache that replicates the source's events with a random
// lag. Writes go through KeyedMutex, as the write service does. No timers: tasks interleave on
// the microtask queue, and a seeded generator makes every run the same.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { KeyedMutex } from '../../../src/overlay/key-lock.js';
import { overlayKeyString } from '../../../src/overlay/overlay-key.js';
import { harness, key, obj } from './fixtures.js';
import { numbered } from '../apimachinery/numbered.js';

const WRITERS = 8;
const ROUNDS = 50;
const KEY = key('shared');
// Loops that run on microtasks alone block the timers, so a test timeout could never fire: bound them.
const MAX_LOOPS = 200_000;

// A linear congruential generator: deterministic lags for a reproducible interleaving.
function lags(seed: number): (max: number) => number {
  let state = seed;
  return (max) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % (max + 1);
  };
}

async function yieldTimes(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

interface World {
  committed: number;
  readonly events: KubeObject[];
  cacheCopy: KubeObject | undefined;
  writersDone: boolean;
}

const rv = (object: KubeObject | undefined) => Number(object?.metadata.resourceVersion ?? 0);

// pause: the most microtasks a writer waits between rounds; cacheLag: the most the cache waits
// per event, or undefined for a cache that never replicates.
interface Pace {
  readonly pause: number;
  readonly cacheLag: number | undefined;
}

async function scenario(seed: number, pace: Pace) {
  const { overlay } = harness(60_000);
  const mutex = new KeyedMutex();
  const lag = lags(seed);
  const world: World = { committed: 100, events: [], cacheCopy: undefined, writersDone: false };
  const read = () => rv(overlay.resolve(KEY, world.cacheCopy).object);

  // Each writer is also a client that must read its own write and never see time go backwards.
  const writer = async () => {
    let lastSeen = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const written = await mutex.run(overlayKeyString(KEY), async () => {
        await yieldTimes(lag(3));
        const object = obj('shared', { rv: String(++world.committed) });
        world.events.push(object);
        await yieldTimes(lag(8)); // the response travels back; the watch event may overtake it
        overlay.recordUpsert(KEY, object, world.cacheCopy);
        return rv(object);
      });
      const seen = read();
      expect(seen).toBeGreaterThanOrEqual(written);
      expect(seen).toBeGreaterThanOrEqual(lastSeen);
      lastSeen = seen;
      await yieldTimes(lag(pace.pause));
    }
  };

  const reader = async () => {
    let lastSeen = 0;
    for (let reads = 0; !world.writersDone && reads < MAX_LOOPS; reads++) {
      const seen = read();
      expect(seen).toBeGreaterThanOrEqual(lastSeen);
      lastSeen = seen;
      await yieldTimes(lag(1));
    }
  };

  const replicator = async () => {
    for (let turns = 0; (!world.writersDone || world.events.length > 0) && turns < MAX_LOOPS; turns++) {
      await yieldTimes(lag(pace.cacheLag ?? 0));
      const event = world.events.shift();
      if (event === undefined) continue;
      world.cacheCopy = event;
      overlay.observe(KEY, { uid: event.metadata.uid ?? '', resourceVersion: event.metadata.resourceVersion ?? '' });
    }
  };

  // finally: a failing writer must still stop the loops below, or they would spin forever.
  const writers = Promise.all(Array.from({ length: WRITERS }, writer)).finally(() => {
    world.writersDone = true;
  });
  const background = Promise.allSettled([reader(), reader(), ...(pace.cacheLag === undefined ? [] : [replicator()])]);
  const wrote = await Promise.allSettled([writers]);
  const atEnd = { entries: overlay.entriesIn(KEY), read: read() };
  for (const outcome of [...wrote, ...(await background)]) if (outcome.status === 'rejected') throw outcome.reason;
  return { world, overlay, mutex, atEnd };
}

describe('Overlay under concurrent writers', () => {
  const cases = numbered([
    { name: 'cache mostly keeping up (its events often overtake the responses)', seed: 1, pace: { pause: 3, cacheLag: 5 } },
    { name: 'cache mostly keeping up, another interleaving', seed: 2, pace: { pause: 3, cacheLag: 5 } },
    { name: 'cache lagging behind the writers', seed: 3, pace: { pause: 2, cacheLag: 6 } },
    { name: 'cache lagging, another interleaving', seed: 4, pace: { pause: 2, cacheLag: 6 } },
    { name: 'cache lagging far behind', seed: 5, pace: { pause: 0, cacheLag: 12 } },
  ]);

  it.each(cases)('case $n: $name: ends at the last committed RV, reads never go backwards', async ({ seed, pace }) => {
    const { world, overlay, mutex, atEnd } = await scenario(seed, pace);
    const last = 100 + WRITERS * ROUNDS;
    expect(world.committed).toBe(last);
    expect(atEnd.read).toBe(last);
    // Either the cache had caught up and the entry was dropped, or the entry holds the last write.
    expect(atEnd.entries.map((e) => Number(e.resourceVersion)).filter((v) => v !== last)).toEqual([]);
    // Once the cache drains, it serves the last version and the overlay is empty again.
    expect(rv(world.cacheCopy)).toBe(last);
    expect(overlay.size()).toEqual({ live: 0, tombstones: 0 });
    expect(overlay.evictions().cache).toBeGreaterThan(0);
    expect(mutex.activeKeys()).toBe(0);
  });

  it('case 6: with a cache that never catches up, the one entry holds exactly the last committed RV', async () => {
    const { overlay, atEnd } = await scenario(7, { pause: 2, cacheLag: undefined });
    expect(atEnd.entries).toHaveLength(1);
    expect(atEnd.entries[0]?.resourceVersion).toBe(String(100 + WRITERS * ROUNDS));
    expect(overlay.size()).toEqual({ live: 1, tombstones: 0 });
  });
});
