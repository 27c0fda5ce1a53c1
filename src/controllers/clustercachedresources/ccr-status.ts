// The status a reconcile works on: a copy of the stored status that steps change, written back
// once at the end only when it differs. A condition keeps its lastTransitionTime unless its
// status flips, so an unchanged CCR produces no write.

import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { CcrPhase, ConditionType } from './ccr-view.js';

/** Condition is one entry of status.conditions. */
export interface Condition {
  readonly type: ConditionType;
  readonly status: 'True' | 'False';
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime: string;
}

/** WorkingStatus is the status being reconciled. */
export class WorkingStatus {
  readonly #original: Readonly<Record<string, unknown>>;
  readonly #next: Record<string, unknown>;
  readonly #now: string;

  constructor(stored: Readonly<Record<string, unknown>>, now: string) {
    this.#original = stored;
    this.#next = structuredClone(stored) as Record<string, unknown>;
    this.#now = now;
  }

  /** phase is status.phase. */
  get phase(): string | undefined {
    return typeof this.#next['phase'] === 'string' ? this.#next['phase'] : undefined;
  }

  /** setPhase sets status.phase. */
  setPhase(phase: CcrPhase): void {
    this.#next['phase'] = phase;
  }

  /** identityHash is status.identityHash ('' when unset). */
  get identityHash(): string {
    return typeof this.#next['identityHash'] === 'string' ? this.#next['identityHash'] : '';
  }

  /** setIdentityHash sets status.identityHash. */
  setIdentityHash(hash: string): void {
    this.#next['identityHash'] = hash;
  }

  /** setCounts sets status.resourceCounts. */
  setCounts(counts: { local: number; cache: number }): void {
    this.#next['resourceCounts'] = { local: counts.local, cache: counts.cache };
  }

  /** setCondition sets one condition, keeping its transition time when its status is unchanged. */
  setCondition(type: ConditionType, status: boolean, reason: string, message = ''): void {
    const conditions = this.conditions().filter((c) => c.type !== type);
    const previous = this.conditions().find((c) => c.type === type);
    const value = status ? 'True' : 'False';
    const lastTransitionTime = previous?.status === value ? previous.lastTransitionTime : this.#now;
    conditions.push({ type, status: value, reason, ...(message ? { message } : {}), lastTransitionTime });
    conditions.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    this.#next['conditions'] = conditions;
  }

  /** condition returns one condition, if set. */
  condition(type: ConditionType): Condition | undefined {
    return this.conditions().find((c) => c.type === type);
  }

  /** changed tells whether anything differs from the stored status. */
  changed(): boolean {
    return !jsonEqual(this.#original, this.#next);
  }

  /** value is the status to write. */
  value(): Record<string, unknown> {
    return this.#next;
  }

  private conditions(): Condition[] {
    return Array.isArray(this.#next['conditions']) ? (this.#next['conditions'] as Condition[]) : [];
  }
}
