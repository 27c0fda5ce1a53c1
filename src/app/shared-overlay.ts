// The overlay of replicas on one etcd: each write a replica records goes into its own Overlay at
// once and into a shared record (ha/shared-records.ts) before the write is answered, and every
// replica applies every record to its own Overlay. A consistent read on any replica waits for the
// records' feed, so it sees a write answered by another replica before the read began. Records
// leave by their lease; the leader also takes a record away when its cache caught up with it.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { SharedRecords } from '../ha/shared-records.js';
import type { Overlay } from '../overlay/overlay.js';
import type { WrittenScopes } from '../write/written-scopes.js';
import type { OverlayRuntime } from './overlay-runtime.js';
import type { EvictionCause, LastKnown, ObservedCopy } from '../overlay/overlay.js';
import { overlayKeyString } from '../overlay/overlay-key.js';
import type { OverlayKey, OverlayScope } from '../overlay/overlay-key.js';
import type { OverlayRecorder } from '../overlay/overlay-recorder.js';

/** OverlayRecord is one shared record: a write's answer, or a deletion's last known version. */
type OverlayRecord =
  | { readonly op: 'upsert'; readonly key: OverlayKey; readonly object: KubeObject }
  | { readonly op: 'delete'; readonly key: OverlayKey; readonly lastKnown: LastKnown };

/** SharedOverlay records into the local overlay and the shared records, and applies everyone's records. */
export class SharedOverlay implements OverlayRecorder {
  readonly #overlay: Overlay;
  readonly #scopes: WrittenScopes;
  readonly #records: SharedRecords;
  readonly #leading: () => boolean;

  constructor(overlay: OverlayRuntime, records: SharedRecords, leading: () => boolean) {
    this.#overlay = overlay.overlay;
    this.#scopes = overlay.scopes;
    this.#records = records;
    this.#leading = leading;
  }

  async recordUpsert(key: OverlayKey, serverObject: KubeObject, cacheCopy?: KubeObject): Promise<void> {
    this.#overlay.recordUpsert(key, serverObject, cacheCopy);
    await this.#publish({ op: 'upsert', key, object: serverObject });
  }

  async recordDelete(key: OverlayKey, lastKnown: LastKnown, cacheCopy?: KubeObject): Promise<void> {
    this.#overlay.recordDelete(key, lastKnown, cacheCopy);
    await this.#publish({ op: 'delete', key, lastKnown });
  }

  async recordDeleteAllOf(scope: OverlayScope, matches: (object: KubeObject) => boolean, cacheObjects: Iterable<KubeObject>): Promise<void> {
    const tombstoned = this.#overlay.recordDeleteAllOf(scope, matches, cacheObjects);
    await Promise.all(tombstoned.map((object) => this.#publish({
      op: 'delete', key: { ...scope, namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' }, lastKnown: object,
    })));
  }

  observe(key: OverlayKey, observed: ObservedCopy | undefined): void {
    this.#overlay.observe(key, observed);
  }

  /** apply records another replica's write (or this one's, coming back) in the local overlay. */
  apply(value: string): void {
    const record = JSON.parse(value) as OverlayRecord;
    // Reads look for objects only the overlay holds in the scopes written to, wherever from.
    this.#scopes.add(record.key);
    if (record.op === 'upsert') this.#overlay.recordUpsert(record.key, record.object);
    else this.#overlay.recordDelete(record.key, record.lastKnown);
  }

  /** evicted takes the record of an entry away once the leader's cache caught up with it. */
  evicted(key: OverlayKey, cause: EvictionCause): void {
    if (cause !== 'cache' || !this.#leading()) return;
    // Best effort: the record's lease removes it anyway, and a newer record is never taken.
    this.#records.remove(overlayKeyString(key)).catch(() => undefined);
  }

  async #publish(record: OverlayRecord): Promise<void> {
    await this.#records.publish(overlayKeyString(record.key), JSON.stringify(record));
  }
}
