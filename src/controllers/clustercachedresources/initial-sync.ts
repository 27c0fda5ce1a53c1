// When a root controller has made its first sync: the CCRs of the source's first list have each
// settled (their child replicated the source's first list, or they cannot replicate and say why).
// It is a latch, as client-go's HasSynced is: a CCR created later, or a child that re-lists, is
// progress that the CCR's own phase, conditions and metrics report; it is not a reason to take
// the process out of service.

import type { KubeObject } from '../../apimachinery/object-meta.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';

/** InitialSyncView is what the latch reads: the CCR informer, and whether a CCR's child has synced. */
export interface InitialSyncView {
  readonly ccrsSynced: () => boolean;
  readonly stored: (key: string) => KubeObject | undefined;
  /** childSynced: undefined when the CCR has no child (yet). */
  readonly childSynced: (key: string) => boolean | undefined;
}

/** BLOCKING_CONDITIONS: a CCR with one of these False will not replicate until someone fixes it. */
const BLOCKING_CONDITIONS = new Set(['ResourceValid', 'IdentityValid']);

/**
 * InitialSync latches once every CCR of the first list has settled. The CCRs of the first list are
 * the ones the informer announces (add) before it reports itself synced, or replays to a handler
 * registered after that: told through firstListed, so a CCR created later never counts however
 * late readiness is first asked.
 */
export class InitialSync {
  readonly #view: InitialSyncView;
  readonly #pending = new Set<string>();
  #done = false;

  constructor(view: InitialSyncView) {
    this.#view = view;
  }

  /** firstListed records a CCR of the informer's first list. */
  firstListed(key: string): void {
    if (!this.#done) this.#pending.add(key);
  }

  /** done tells whether the first sync is complete; once true it stays true. */
  done(): boolean {
    if (this.#done) return true;
    if (!this.#view.ccrsSynced()) return false;
    for (const key of this.#pending) {
      if (this.#settled(key)) this.#pending.delete(key);
    }
    this.#done = this.#pending.size === 0;
    return this.#done;
  }

  #settled(key: string): boolean {
    const stored = this.#view.stored(key);
    if (stored === undefined || stored.metadata.deletionTimestamp !== undefined) return true;
    const child = this.#view.childSynced(key);
    if (child !== undefined) return child;
    return blocked(stored);
  }
}

/** blocked tells whether a CCR's status says it cannot replicate (invalid resource or identity). */
function blocked(ccr: KubeObject): boolean {
  const status = ccr['status'];
  const conditions = isPlainObject(status) && Array.isArray(status['conditions']) ? status['conditions'] : [];
  return conditions.some((c: unknown) => isPlainObject(c) && BLOCKING_CONDITIONS.has(String(c['type'])) && c['status'] === 'False');
}
