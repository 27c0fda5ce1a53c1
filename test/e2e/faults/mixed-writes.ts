// A deterministic stream of creates, updates and deletes on the source, for the fault tests.
// Each write must succeed: the source itself is never faulty, only the path to the cache.

import { expect } from 'vitest';
import { request } from '../../helpers/kube-http.js';

/**
 * MixedWritesOptions: how many writes, a name prefix unique to the run, a pause between writes
 * (it spreads the writes over an observation window; nothing waits on it), and a hook called after
 * each write with its index (to inject a fault at a given point of the stream).
 */
export interface MixedWritesOptions {
  readonly count: number;
  readonly prefix: string;
  readonly pauseMs?: number;
  readonly afterWrite?: (index: number) => void;
}

/** mixedWrites creates, updates and deletes objects in `collection` (about half creates). */
export async function mixedWrites(collection: string, opts: MixedWritesOptions): Promise<void> {
  const live: string[] = [];
  let seed = 7;
  // A tiny linear congruential generator: the same sequence of writes every run.
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < opts.count; i++) {
    const roll = live.length < 5 ? 0 : random(6);
    if (roll <= 2) {
      const name = `${opts.prefix}-${i}`;
      const res = await request('POST', collection, { metadata: { name }, spec: { i } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      live.push(name);
    } else if (roll <= 4) {
      const name = live[random(live.length)]!;
      const res = await request('PATCH', `${collection}/${name}`, { spec: { i, updated: true } }, 'application/merge-patch+json');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } else {
      const [name] = live.splice(random(live.length), 1);
      const res = await request('DELETE', `${collection}/${name!}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    opts.afterWrite?.(i);
    if (opts.pauseMs) await new Promise((resolve) => setTimeout(resolve, opts.pauseMs));
  }
}
