// InitialSync: readiness waits for the CCRs of the source's first list, then never again.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { InitialSync } from '../../../../src/controllers/clustercachedresources/initial-sync.js';

interface World {
  ccrsSynced: boolean;
  ccrs: Map<string, KubeObject>;
  children: Map<string, boolean>;
}

function world(): World {
  return { ccrsSynced: false, ccrs: new Map(), children: new Map() };
}

function latch(w: World): InitialSync {
  return new InitialSync({
    ccrsSynced: () => w.ccrsSynced,
    stored: (key) => w.ccrs.get(key),
    childSynced: (key) => w.children.get(key),
  });
}

/** listed puts a CCR in the informer's first list. */
function listed(w: World, sync: InitialSync, key: string, obj: KubeObject): void {
  w.ccrs.set(key, obj);
  sync.firstListed(key);
}

function ccr(name: string, extra: Partial<KubeObject> = {}): KubeObject {
  return { metadata: { name }, ...extra };
}

describe('InitialSync', () => {
  it('case 1: not done before the CCR informer has listed', () => {
    const w = world();
    expect(latch(w).done()).toBe(false);
  });

  it('case 2: no CCR at all → done as soon as the informer listed', () => {
    const w = world();
    w.ccrsSynced = true;
    expect(latch(w).done()).toBe(true);
  });

  it('case 3: waits for the child of each CCR of the first list to sync', () => {
    const w = world();
    const sync = latch(w);
    listed(w, sync, 'root|a', ccr('a'));
    w.ccrsSynced = true;
    expect(sync.done()).toBe(false);
    w.children.set('root|a', false);
    expect(sync.done()).toBe(false);
    w.children.set('root|a', true);
    expect(sync.done()).toBe(true);
  });

  it('case 4: once done, a new CCR or a child that is syncing again does not undo it', () => {
    const w = world();
    w.ccrsSynced = true;
    const sync = latch(w);
    expect(sync.done()).toBe(true);
    w.ccrs.set('root|late', ccr('late'));
    w.children.set('root|late', false);
    expect(sync.done()).toBe(true);
  });

  it('case 5: a CCR created after the first list does not hold the first sync back', () => {
    const w = world();
    const sync = latch(w);
    listed(w, sync, 'root|a', ccr('a'));
    w.ccrsSynced = true;
    expect(sync.done()).toBe(false);
    w.ccrs.set('root|b', ccr('b'));
    w.children.set('root|b', false);
    w.children.set('root|a', true);
    expect(sync.done()).toBe(true);
  });

  it.each([
    ['case 6: gone', undefined],
    ['case 7: being deleted', ccr('a', { metadata: { name: 'a', deletionTimestamp: '2026-01-01T00:00:00Z' } })],
    ['case 8: an invalid resource', ccr('a', { status: { conditions: [{ type: 'ResourceValid', status: 'False' }] } })],
    ['case 9: an invalid identity', ccr('a', { status: { conditions: [{ type: 'IdentityValid', status: 'False' }] } })],
  ])('%s: a CCR of the first list that cannot replicate has settled', (_name, stored) => {
    const w = world();
    const sync = latch(w);
    listed(w, sync, 'root|a', ccr('a'));
    w.ccrsSynced = true;
    expect(sync.done()).toBe(false);
    if (stored === undefined) w.ccrs.delete('root|a');
    else w.ccrs.set('root|a', stored);
    expect(sync.done()).toBe(true);
  });

  it('case 10: a CCR created after the first list, before readiness is first asked, does not count', () => {
    const w = world();
    const sync = latch(w);
    w.ccrsSynced = true;
    w.ccrs.set('root|late', ccr('late'));
    w.children.set('root|late', false);
    expect(sync.done()).toBe(true);
  });

  it('case 11: a CCR whose conditions are all True still waits for its child', () => {
    const w = world();
    const sync = latch(w);
    listed(w, sync, 'root|a', ccr('a', { status: { conditions: [{ type: 'ResourceValid', status: 'True' }] } }));
    w.ccrsSynced = true;
    expect(sync.done()).toBe(false);
  });
});
