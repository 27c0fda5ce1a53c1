// What the write service records into: the Overlay itself (one process), or an overlay shared by
// replicas, whose recording is done once the record is committed where every replica reads it.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { OverlayKey, OverlayScope } from './overlay-key.js';
import type { LastKnown, ObservedCopy } from './overlay.js';

/** OverlayRecorder records successful writes; a returned promise settles once every reader can see them. */
export interface OverlayRecorder {
  recordUpsert(key: OverlayKey, serverObject: KubeObject, cacheCopy?: KubeObject): void | Promise<void>;
  recordDelete(key: OverlayKey, lastKnown: LastKnown, cacheCopy?: KubeObject): void | Promise<void>;
  recordDeleteAllOf(scope: OverlayScope, matches: (object: KubeObject) => boolean, cacheObjects: Iterable<KubeObject>): unknown;
  observe(key: OverlayKey, observed: ObservedCopy | undefined): void;
}
