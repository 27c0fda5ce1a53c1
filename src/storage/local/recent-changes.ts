// The most recent committed changes, kept in memory so a feed can start from a revision a little
// in the past (a store that listed, then opened its feed after a few more commits). There is no
// history table: the file holds only live keys, so a revision older than what this window covers
// cannot be replayed and the feed is told it was compacted.
//
// Every successful write takes the next revision, so the window holds every revision after
// `coveredAfter`. It is bounded by count and by the characters of keys and values it holds:
// the count alone would let a few large values that are rewritten often take any amount of memory.

import type { Change } from '../backend.js';

/** RecentChangesLimits bound the window; the oldest changes are evicted first. */
export interface RecentChangesLimits {
  readonly maxChanges: number;
  readonly maxChars: number;
}

/** RecentChanges is a bounded window of the latest changes, in revision order. */
export class RecentChanges {
  /** changes holds the window from head on; evicted slots before it are cleared, so their values can be collected. */
  private changes: (Change | undefined)[] = [];
  private head = 0;
  private chars = 0;
  private coveredAfterRevision: number;

  /** startRevision is the revision the backend opened at: the window covers everything after it. */
  constructor(
    private readonly limits: RecentChangesLimits,
    startRevision: number,
  ) {
    this.coveredAfterRevision = startRevision;
  }

  /** coveredAfter is the revision after which the window holds every change. */
  get coveredAfter(): number {
    return this.coveredAfterRevision;
  }

  /** append adds a committed batch (in revision order) and evicts what no longer fits. */
  append(batch: readonly Change[]): void {
    for (const change of batch) {
      this.changes.push(change);
      this.chars += sizeOf(change);
    }
    this.evict();
  }

  /**
   * since is every change under prefix with a revision after afterRevision, in revision order, or
   * undefined when the window no longer covers afterRevision.
   */
  since(afterRevision: number, prefix: string): Change[] | undefined {
    if (afterRevision < this.coveredAfterRevision) return undefined;
    const found: Change[] = [];
    for (let i = this.firstAfter(afterRevision); i < this.changes.length; i++) {
      const change = this.changes[i] as Change;
      if (change.key.startsWith(prefix)) found.push(change);
    }
    return found;
  }

  /** firstAfter is the index of the first held change with a revision after the given one. */
  private firstAfter(revision: number): number {
    let low = this.head;
    let high = this.changes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.changes[middle] as Change).revision <= revision) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private evict(): void {
    const { maxChanges, maxChars } = this.limits;
    while (this.head < this.changes.length && (this.changes.length - this.head > maxChanges || this.chars > maxChars)) {
      const oldest = this.changes[this.head] as Change;
      this.chars -= sizeOf(oldest);
      this.coveredAfterRevision = oldest.revision;
      this.changes[this.head] = undefined;
      this.head++;
    }
    // Drop the evicted slots now and then, not on every eviction, so eviction stays O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.changes.length) {
      this.changes = this.changes.slice(this.head);
      this.head = 0;
    }
  }
}

function sizeOf(change: Change): number {
  return change.key.length + (change.value?.length ?? 0);
}
