// The copy writes a replication controller has in flight, by key. The cache reports each write
// back through the controller's copy watch; reconciling that key again would be a second, no-op
// pass over every object (at 100k objects it doubled the work right after a sync), so such an
// event is recognised and dropped. Any other change to a copy (an edit, a forged copy) is not.

import type { KubeObject } from '../../apimachinery/object-meta.js';

/** OwnWrites remembers, per key, the copy being written while its write runs. */
export class OwnWrites {
  readonly #inFlight = new Map<string, KubeObject>();

  /** run runs write, remembering copy under key until it settles. */
  run(key: string, copy: KubeObject, write: () => Promise<unknown>): Promise<void> {
    // Not an async function: its frame, promise and await were a few hundred bytes per copy of a sync.
    const inFlight = this.#inFlight;
    inFlight.set(key, copy);
    const forget = (): void => void inFlight.delete(key);
    let written: Promise<unknown>;
    try {
      written = write();
    } catch (err) {
      forget();
      return Promise.reject(err);
    }
    return written.then(forget, (err: unknown) => {
      forget();
      throw err;
    });
  }

  /**
   * caused tells a copy event caused by a write in flight: the stored copy holds the very spec
   * object written (a store keeps spec by reference), or, for a delete, is the copy deleted.
   */
  caused(key: string, type: string, copy: KubeObject): boolean {
    const own = this.#inFlight.get(key);
    if (own === undefined) return false;
    return type === 'DELETED' ? copy === own || copy.metadata.uid === own.metadata.uid : copy.spec === own.spec;
  }
}
