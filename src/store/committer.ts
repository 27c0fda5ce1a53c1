// The seam between a store's checks and where its writes become committed. Without a committer
// the store commits in memory at once; with one (a durable backend behind it), a checked write is
// handed over, committed there first, and comes back through the backend's change feed.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { ChangeType } from './event-window.js';
import type { ObjectKey } from './store.js';

/** PlannedWrite is a write the store has checked against its current view. */
export interface PlannedWrite {
  readonly key: ObjectKey;
  /** type: ADDED creates, MODIFIED replaces previous, DELETED removes previous. */
  readonly type: ChangeType;
  /** object is the new state (for DELETED, the object's final state). Its resourceVersion is a placeholder. */
  readonly object: KubeObject;
  readonly previous: KubeObject | undefined;
  /** bytes is object's estimated size, measured when it was frozen. */
  readonly bytes: number;
}

/** Committer commits planned writes and resolves with the object as the store then holds it. */
export interface Committer {
  /**
   * persist commits a write. It rejects with StaleView when the store's view of the key was behind
   * the backend (the store checks again once its feed has caught up), or with an AppError.
   */
  persist(write: PlannedWrite): Promise<KubeObject>;
}

/** StaleView says a write was checked against a view of its key older than the backend's. */
export class StaleView extends Error {
  override readonly name = 'StaleView';
}
