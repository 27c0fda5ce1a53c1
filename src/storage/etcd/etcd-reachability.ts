// What the backend last saw of etcd: every call and the periodic probe report here, and health()
// reads it without a round trip.

import type { BackendHealth } from '../backend.js';

/** Reachability is the last observed state of the etcd endpoints. */
export class Reachability {
  private failure: string | undefined;

  constructor(private readonly endpoints: readonly string[]) {}

  /** answered records that some member answered a call. */
  answered(): void {
    this.failure = undefined;
  }

  /** unreachable records that no member answered a call, with what went wrong last. */
  unreachable(detail: string): void {
    this.failure = detail;
  }

  /** health is ok until a call finds no member that answers. */
  health(): BackendHealth {
    if (this.failure === undefined) return { ok: true };
    return { ok: false, message: `etcd: no endpoint answers (${this.endpoints.join(', ')}: ${this.failure})` };
  }
}
