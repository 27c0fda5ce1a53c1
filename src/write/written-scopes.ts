// The resources (per shard and logical cluster) that writes have been recorded for. The overlay
// answers per scope, and a list or a lookup without a shard or cluster has to know which scopes
// might hold writes the cache does not have yet (objects created but not replicated). The set
// only grows, by one entry per resource and cluster written through this process.

import type { OverlayScope } from '../overlay/overlay-key.js';
import { overlayScopeString } from '../overlay/overlay-key.js';

/** WrittenScope is one resource of one logical cluster that has been written through the overlay. */
export interface WrittenScope extends OverlayScope {
  /** group is '' for the core group. */
  readonly group: string;
}

/** WrittenScopes remembers every scope a write was recorded in. */
export class WrittenScopes {
  readonly #scopes = new Map<string, WrittenScope>();

  /** add remembers a scope (its namespace is ignored). */
  add(scope: OverlayScope): void {
    const key = overlayScopeString(scope);
    if (this.#scopes.has(key)) return;
    this.#scopes.set(key, { shard: scope.shard, cluster: scope.cluster, group: scope.group === 'core' ? '' : scope.group, resource: scope.resource });
  }

  /** all lists the scopes written so far. */
  all(): Iterable<WrittenScope> {
    return this.#scopes.values();
  }
}
