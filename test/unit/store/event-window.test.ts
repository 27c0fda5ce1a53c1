import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { EventWindow } from '../../../src/store/event-window.js';
import { ResourceTable } from '../../../src/store/object-table.js';

const source = new ResourceTable('', 'configmaps').ensureCluster('c1');

function obj(rv: number): KubeObject {
  return { metadata: { name: `o${rv}`, resourceVersion: String(rv) } };
}

function after(window: EventWindow, rv: number): number[] {
  const seen: number[] = [];
  window.forEachAfter(rv, (v, _type, object) => {
    expect(object.metadata.resourceVersion).toBe(String(v));
    seen.push(v);
  });
  return seen;
}

describe('EventWindow', () => {
  const cases: { name: string; capacity: number; pushed: number; from: number; resumable: boolean; want: number[] }[] = [
    { name: 'not yet full replays everything after rv', capacity: 5, pushed: 3, from: 1, resumable: true, want: [2, 3] },
    { name: 'wrapped keeps the newest events in order', capacity: 3, pushed: 7, from: 5, resumable: true, want: [6, 7] },
    { name: 'the version just before the oldest is resumable', capacity: 3, pushed: 7, from: 4, resumable: true, want: [5, 6, 7] },
    { name: 'older than that is not', capacity: 3, pushed: 7, from: 3, resumable: false, want: [5, 6, 7] },
    { name: 'the newest version replays nothing', capacity: 3, pushed: 7, from: 7, resumable: true, want: [] },
    { name: 'capacity 0 keeps nothing', capacity: 0, pushed: 4, from: 3, resumable: false, want: [] },
    { name: 'capacity 0 can resume from the newest', capacity: 0, pushed: 4, from: 4, resumable: true, want: [] },
  ];
  cases.forEach((c, i) => {
    it(`case ${i + 1}: ${c.name}`, () => {
      const window = new EventWindow(c.capacity);
      for (let rv = 1; rv <= c.pushed; rv++) window.push(rv, 'ADDED', obj(rv), undefined, source);
      expect(window.canResumeFrom(c.from)).toBe(c.resumable);
      expect(after(window, Math.max(c.from, window.oldestResumable()))).toEqual(c.want);
    });
  });
});
