// The running replication controllers of one root controller, by CCR key. A child is replaced
// (old one stopped, its copies purged) when its CCR's GVR or identity changes.

import { schemaOf } from '../../apimachinery/gvr.js';
import type { ReplicationSpec } from '../replication/replication-spec.js';
import type { Child, CopyPurger, StartChild } from './ccr-deps.js';

/**
 * ClaimedElsewhere tells whether a live CCR other than the one with this key names the same
 * resource in the same place: it will replicate it, so the copies are not to be purged.
 */
export type ClaimedElsewhere = (key: string, spec: ReplicationSpec) => boolean;

interface Running {
  readonly spec: ReplicationSpec;
  readonly child: Child;
}

/** ChildRegistry starts, updates and stops children. */
export class ChildRegistry {
  readonly #running = new Map<string, Running>();
  /** #starting: the specs of children whose start is in progress, by CCR key (they count as replicating). */
  readonly #starting = new Map<string, ReplicationSpec>();
  readonly #start: StartChild;
  readonly #purger: CopyPurger;
  readonly #claimedElsewhere: ClaimedElsewhere;

  constructor(start: StartChild, purger: CopyPurger, claimedElsewhere: ClaimedElsewhere = () => false) {
    this.#start = start;
    this.#purger = purger;
    this.#claimedElsewhere = claimedElsewhere;
  }

  /** get returns the running child of a CCR. */
  get(key: string): Child | undefined {
    return this.#running.get(key)?.child;
  }

  /** ensure makes the CCR's child run with this spec: started, re-selected, or replaced. */
  async ensure(key: string, spec: ReplicationSpec, onCountsChanged: () => void): Promise<Child> {
    const running = this.#running.get(key);
    if (running && sameSource(running.spec, spec)) {
      running.child.updateSelector(spec.selector);
      return running.child;
    }
    if (running) await this.remove(key, { purge: true });
    this.#starting.set(key, spec);
    try {
      const child = await this.#start(spec, onCountsChanged);
      this.#running.set(key, { spec, child });
      return child;
    } finally {
      this.#starting.delete(key);
    }
  }

  /**
   * remove stops a CCR's child, and with purge deletes its copies, unless another CCR replicates
   * the same resource in the same place, or is about to: its child running or starting, or the CCR
   * live in the informer with its child still to come (its first passes write finalizer, annotations
   * and identity first). The copies are then that CCR's (one that vanished while a new one for its
   * resource appeared, e.g. after its source restarted), and its child deletes any it does not select.
   */
  async remove(key: string, opts: { purge: boolean }): Promise<void> {
    const running = this.#running.get(key);
    if (!running) return;
    this.#running.delete(key);
    await running.child.stop();
    const { shard, cluster, gvr } = running.spec;
    if (opts.purge && !this.#replicatedElsewhere(running.spec) && !this.#claimedElsewhere(key, running.spec)) await this.#purger.purge(shard, cluster, gvr);
  }

  #replicatedElsewhere(spec: ReplicationSpec): boolean {
    // A child still starting counts: its copies may be written before it is registered as running.
    const others = [...[...this.#running.values()].map((r) => r.spec), ...this.#starting.values()];
    return others.some((other) => other.shard === spec.shard && other.cluster === spec.cluster && schemaOf(other.gvr) === schemaOf(spec.gvr));
  }

  /** children lists the running children (for readiness). */
  children(): Child[] {
    return [...this.#running.values()].map((r) => r.child);
  }

  /** stopAll stops every child without purging (shutdown keeps nothing anyway). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#running.keys()].map((key) => this.remove(key, { purge: false })));
  }
}

function sameSource(a: ReplicationSpec, b: ReplicationSpec): boolean {
  return a.shard === b.shard && a.cluster === b.cluster && schemaOf(a.gvr) === schemaOf(b.gvr) && a.identityHash === b.identityHash;
}
