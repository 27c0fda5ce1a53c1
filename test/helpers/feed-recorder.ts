// Recording what a backend's change feed delivers, so a test can wait for a revision and then
// assert the whole sequence.

import { expect } from 'vitest';
import type { Change, FeedHandlers } from '../../src/storage/backend.js';
import { eventually } from './kube-http.js';

/** FeedRecorder keeps every change and handler call a feed makes. */
export class FeedRecorder {
  readonly changes: Change[] = [];
  /** calls counts changes() calls; compactions counts compacted() calls. */
  calls = 0;
  compactions = 0;

  readonly handlers: FeedHandlers = {
    changes: (changes) => {
      this.calls++;
      this.changes.push(...changes);
    },
    compacted: () => {
      this.compactions++;
    },
  };

  /** revisions are the delivered revisions, in delivery order. */
  revisions(): number[] {
    return this.changes.map((change) => change.revision);
  }

  /** lastRevision is the revision of the latest delivered change, 0 before any. */
  lastRevision(): number {
    return this.changes.at(-1)?.revision ?? 0;
  }

  /** reached waits until the feed has delivered a change at or past revision. */
  async reached(revision: number): Promise<void> {
    await eventually(() => expect(this.lastRevision()).toBeGreaterThanOrEqual(revision));
  }

  /** compacted waits until the feed has reported compaction. */
  async compacted(): Promise<void> {
    await eventually(() => expect(this.compactions).toBeGreaterThan(0));
  }
}
