// Shared builders for the overlay tests: keys in one scope, objects with a UID and
// resourceVersion, and an overlay on a hand-driven clock.

import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { Overlay } from '../../../src/overlay/overlay.js';
import type { OverlaySize } from '../../../src/overlay/overlay.js';
import type { OverlayKey, OverlayScope } from '../../../src/overlay/overlay-key.js';

/** SCOPE is the resource every test works in: widgets of one logical cluster. */
export const SCOPE: OverlayScope = { shard: 'root', cluster: 'team-a', group: 'example.io', resource: 'widgets' };

/** TTL is the overlay TTL in the tests, in ms of the fake clock. */
export const TTL = 1000;

/** key names an object of SCOPE. */
export function key(name: string, namespace = 'default'): OverlayKey {
  return { ...SCOPE, namespace, name };
}

/** ObjOptions are the fields of a test object beyond its name. */
export interface ObjOptions {
  readonly rv?: string;
  readonly uid?: string;
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly deletionTimestamp?: string;
  readonly finalizers?: string[];
}

/** obj builds a widget; the UID defaults to `uid-<name>` and the resourceVersion to "10". */
export function obj(name: string, options: ObjOptions = {}): KubeObject {
  const { rv = '10', uid = `uid-${name}`, namespace = 'default', labels, deletionTimestamp, finalizers } = options;
  const metadata = { name, namespace, uid, resourceVersion: rv, labels, deletionTimestamp, finalizers };
  return { apiVersion: 'example.io/v1', kind: 'Widget', metadata: JSON.parse(JSON.stringify(metadata)) as KubeObject['metadata'] };
}

/** rvOf reads an object's resourceVersion (undefined for no object). */
export function rvOf(object: KubeObject | undefined): string | undefined {
  return object?.metadata.resourceVersion;
}

/** Harness is an overlay with its clock and the sizes it reported. */
export interface Harness {
  readonly overlay: Overlay;
  readonly clock: { now: number };
  readonly changes: OverlaySize[];
}

/** harness builds an overlay with TTL on a clock the test advances by hand. */
export function harness(ttlMs = TTL): Harness {
  const clock = { now: 0 };
  const changes: OverlaySize[] = [];
  const overlay = new Overlay({ now: () => clock.now, ttlMs, onChange: (size) => changes.push(size) });
  return { overlay, clock, changes };
}
