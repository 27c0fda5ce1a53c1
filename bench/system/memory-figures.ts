// The memory rows of the system bench: RSS and heap (after a full GC) that the process grew by per
// replicated object over a sync, each against the object's JSON size, and where the phase read it,
// RSS at rest (see memory-phase.ts), which then carries the RSS target. The memory phases and the
// durable backends' phases print them alike, so their figures compare row for row.

import { fmt } from './figure-format.js';
import type { Figure } from './figure-format.js';
import type { MemoryAtRest } from './memory-phase.js';
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
  /** rest: the readings at rest, when the phase took them; the RSS target is then checked on them. */
  readonly rest?: MemoryAtRest;
}

/** memoryFigures are the RSS and heap rows of one sync. */
export function memoryFigures(m: MemoryGrowth): Figure[] {
  // A backend's client thread has a heap of its own (etcd), and it counts. The bench cannot collect
  // it: right after a sync it still holds the sync's garbage (23-29 MiB in runs whose live heap was
  // 15 MiB), so where the phase read the process at rest, after the thread's own idle collection
  // (memoryAtRest), the thread's heap is read there, and both isolates count after a collection.
  const threadBefore = (m.rest?.before ?? m.before).threadHeapUsed;
  const threadAfter = (m.rest?.after ?? m.after).threadHeapUsed;
  const heap = (m.after.heapUsed + threadAfter - m.before.heapUsed - threadBefore) / m.n;
  const threadWhen = m.rest === undefined ? 'as it was, not collected first' : 'at rest, after its own idle collection';
  const thread = threadAfter > 0
    ? `; with the etcd client thread's heap, ${fmt(threadBefore / 2 ** 20)} → ${fmt(threadAfter / 2 ** 20)} MiB, ${threadWhen}`
    : '';
  const json = { name: 'JSON size of the object', value: m.avgJsonBytes, text: `${fmt(m.avgJsonBytes)} B` };
  const target = (limit: number, ratio: number): Pick<Figure, 'target'> => (m.withTargets ? { target: { text: `≤ ${limit}x`, met: ratio <= limit } } : {});
  const rssRow = (id: string, name: string, before: Memory, after: Memory, withTarget: boolean): Figure => {
    const perObject = (after.rss - before.rss) / m.n;
    return {
      id, name, value: perObject, unit: 'B',
      text: `${fmt(perObject)} B (RSS ${fmt(before.rss / 2 ** 20)} → ${fmt(after.rss / 2 ** 20)} MiB)`,
      reference: json, ratio: perObject / m.avgJsonBytes, ...(withTarget ? target(RSS_RATIO_TARGET, perObject / m.avgJsonBytes) : {}),
    };
  };
  const rest = m.rest;
  return [
    rssRow(`${m.id}.rss_per_object`, rest === undefined ? m.rssName : `${m.rssName}, right after the sync`, m.before, m.after, rest === undefined),
    ...(rest === undefined ? [] : [rssRow(`${m.id}.rss_at_rest_per_object`, `${m.rssName}, at rest`, rest.before, rest.after, true)]),
    {
      id: `${m.id}.heap_per_object`, name: m.heapName, value: heap, unit: 'B',
      text: `${fmt(heap)} B (heap and ArrayBuffers ${fmt(m.before.heapUsed / 2 ** 20)} → ${fmt(m.after.heapUsed / 2 ** 20)} MiB${thread})`,
      reference: json, ratio: heap / m.avgJsonBytes, ...target(HEAP_RATIO_TARGET, heap / m.avgJsonBytes),
    },
  ];
}
