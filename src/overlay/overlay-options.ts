// The shapes an Overlay is configured with and answers in, kept apart so overlay.ts holds only
// behaviour.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { OverlaySize } from './entry-table.js';
import type { OverlayKey } from './overlay-key.js';

/** DEFAULT_TTL_MS is the seed's default entry lifetime, used when the configured one is not positive. */
export const DEFAULT_TTL_MS = 120_000;

/** EvictionCause says why an entry left: the cache caught up, or its TTL passed. */
export type EvictionCause = 'cache' | 'ttl';

/**
 * OverlayOptions configures an Overlay; `onChange` fires after any change in the counts, and
 * `onEvict` for each entry that leaves (a shared overlay takes its record away when the cache caught up).
 */
export interface OverlayOptions {
  readonly now: () => number;
  readonly ttlMs: number;
  readonly onChange?: (size: OverlaySize) => void;
  readonly onEvict?: (key: OverlayKey, cause: EvictionCause) => void;
}

/** Resolved is the answer to a single-object read and where it came from. */
export interface Resolved {
  readonly object: KubeObject | undefined;
  readonly source: 'cache' | 'overlay';
}

/** LastKnown identifies the deleted version: the object, or just its UID and resourceVersion. */
export type LastKnown = KubeObject | { readonly uid?: string; readonly resourceVersion?: string };
