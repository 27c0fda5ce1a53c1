// EventWindow with versions that skip numbers and repeat: a durable store's events skip the
// revisions of other key spaces, and the objects written in one etcd transaction share a revision
// (a group). Versions pushed are given per case; a resume replays after resumeAfter(from).
//   case 1: skipped versions: resume from a version between two events replays the later ones.
//   case 2: resume from a group of several events replays the whole group (a client cut off in
//           its middle knows only its version), then what follows.
//   case 3: resume from a version whose event stands alone replays only what follows it.
//   case 4: a group whose oldest events were evicted cannot be resumed from (410), the version
//           after it can.
//   case 5: restartAt empties the window and covers only what follows its version.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { EventWindow } from '../../../src/store/event-window.js';
import { ResourceTable } from '../../../src/store/object-table.js';

const source = new ResourceTable('', 'configmaps').ensureCluster('c1');

function windowOf(versions: readonly number[], maxEvents = 1000): EventWindow {
  const window = new EventWindow({ maxEvents, maxBytes: Number.MAX_SAFE_INTEGER });
  versions.forEach((rv, i) => {
    const object: KubeObject = { metadata: { name: `o${i}`, resourceVersion: String(rv) } };
    window.push(rv, 'ADDED', object, undefined, source, 1);
  });
  return window;
}

/** resumed lists the names replayed for a watch from rv, or 'expired' when it cannot resume. */
function resumed(window: EventWindow, rv: number): string[] | 'expired' {
  if (!window.canResumeFrom(rv)) return 'expired';
  const names: string[] = [];
  window.forEachAfter(window.resumeAfter(rv), (_v, _type, object) => names.push(object.metadata.name ?? ''));
  return names;
}

describe('EventWindow: versions that skip and repeat', () => {
  it('case 1: skipped versions: a resume between two events replays the later ones', () => {
    expect(resumed(windowOf([3, 7, 12]), 5)).toEqual(['o1', 'o2']);
    expect(resumed(windowOf([3, 7, 12]), 12)).toEqual([]);
  });

  it('case 2: a resume from a group of several events replays the whole group, then what follows', () => {
    expect(resumed(windowOf([4, 9, 9, 9, 11]), 9)).toEqual(['o1', 'o2', 'o3', 'o4']);
  });

  it('case 3: a resume from a version whose event stands alone replays only what follows it', () => {
    expect(resumed(windowOf([4, 9, 9, 11]), 4)).toEqual(['o1', 'o2', 'o3']);
    expect(resumed(windowOf([4, 9, 9, 11]), 11)).toEqual([]);
  });

  it('case 4: a group whose oldest events were evicted cannot be resumed from; the next version can', () => {
    const window = windowOf([5, 6, 6, 6, 8], 3);
    expect(resumed(window, 6)).toBe('expired');
    expect(resumed(window, 7)).toEqual(['o4']);
    expect(resumed(window, 5)).toBe('expired');
  });

  it('case 5: restartAt empties the window and covers only what follows its version', () => {
    const window = windowOf([1, 2, 3]);
    window.restartAt(40);
    expect(window.size).toBe(0);
    expect(resumed(window, 39)).toBe('expired');
    expect(resumed(window, 40)).toEqual([]);
    window.push(41, 'ADDED', { metadata: { name: 'late' } }, undefined, source, 1);
    expect(resumed(window, 40)).toEqual(['late']);
  });
});
