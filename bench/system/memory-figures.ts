// The memory rows of the system bench: RSS and heap (after a full GC) that the process grew by per
// replicated object over a sync, each against the object's JSON size. The memory phases and the
// durable backends' phases print them alike, so their figures compare row for row.

import { fmt } from './figure-format.js';
import type { Figure } from './figure-format.js';
import type { Memory } from './processes.js';

const RSS_RATIO_TARGET = 2;
const HEAP_RATIO_TARGET = 1.5;

/** MemoryGrowth is one process's memory around a sync of n objects. */
export interface MemoryGrowth {
  /** id prefixes the rows' ids, e.g. `memory.100000` or `durable.local.memory`. */
  readonly id: string;
  /** rssName and heapName are the rows' names. */
  readonly rssName: string;
  readonly heapName: string;
  readonly n: number;
  readonly avgJsonBytes: number;
  readonly before: Memory;
  readonly after: Memory;
  /** withTargets shows the targets (RSS ≤ 2x the JSON, heap ≤ 1.5x) on the rows. */
  readonly withTargets: boolean;
}

/** memoryFigures are the RSS and heap rows of one sync. */
export function memoryFigures(m: MemoryGrowth): Figure[] {
  const rss = (m.after.rss - m.before.rss) / m.n;
  const heap = (m.after.heapUsed - m.before.heapUsed) / m.n;
  const json = { name: 'JSON size of the object', value: m.avgJsonBytes, text: `${fmt(m.avgJsonBytes)} B` };
  const target = (limit: number, ratio: number): Pick<Figure, 'target'> => (m.withTargets ? { target: { text: `≤ ${limit}x`, met: ratio <= limit } } : {});
  return [
    {
      id: `${m.id}.rss_per_object`, name: m.rssName, value: rss, unit: 'B',
      text: `${fmt(rss)} B (RSS ${fmt(m.before.rss / 2 ** 20)} → ${fmt(m.after.rss / 2 ** 20)} MiB)`,
      reference: json, ratio: rss / m.avgJsonBytes, ...target(RSS_RATIO_TARGET, rss / m.avgJsonBytes),
    },
    {
      id: `${m.id}.heap_per_object`, name: m.heapName, value: heap, unit: 'B',
      text: `${fmt(heap)} B (heap ${fmt(m.before.heapUsed / 2 ** 20)} → ${fmt(m.after.heapUsed / 2 ** 20)} MiB)`,
      reference: json, ratio: heap / m.avgJsonBytes, ...target(HEAP_RATIO_TARGET, heap / m.avgJsonBytes),
    },
  ];
}
