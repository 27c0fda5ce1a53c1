// Starting a watch: validating its resourceVersion, sending the initial state or replaying the
// event window, then registering for live changes — all in one synchronous step, so no write can
// slip between the catch-up and the live stream.

import { AppError } from '../errors.js';
import { tooLargeResourceVersion } from './store-errors.js';
import { invalidResourceVersion } from '../apimachinery/resource-version.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { EventWindow } from './event-window.js';
import { collectObjects } from './list-query.js';
import { planLabelIndex } from './label-index-plan.js';
import type { ObjectTable } from './object-table.js';
import type { Scope, Watch, WatchListener, WatchOptions } from './store.js';
import type { WatchHub } from './watch-hub.js';
import { Watcher } from './watcher.js';
import type { ListenerErrorHandler } from './watcher.js';

/** WatchContext is the part of a store a watch needs. */
export interface WatchContext {
  readonly table: ObjectTable;
  readonly window: EventWindow;
  readonly hub: WatchHub;
  readonly currentRv: () => number;
  readonly onListenerError: ListenerErrorHandler;
}

/** INITIAL_EVENTS_END is the annotation of the bookmark that closes the initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** startWatch catches a new watcher up and registers it; it throws Expired or BadRequest. */
export function startWatch(ctx: WatchContext, scope: Scope, opts: WatchOptions, listener: WatchListener): Watch {
  const from = parseStart(opts.resourceVersion);
  const current = ctx.currentRv();
  // A version this store never issued belongs to an earlier incarnation of it (restarted, counting
  // from 1 again): waiting for it would hide every change until the counter passes it.
  if (from > current) throw tooLargeResourceVersion(from, current);
  const resource = ctx.table.ensureResource(scope.group, scope.resource);
  const watcher = new Watcher({ ...scope, labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector }, listener, ctx.onListenerError);
  if (opts.sendInitialEvents === true || from === 0) {
    for (const obj of collectObjects(resource, scope, planLabelIndex(resource, scope, opts))) watcher.send('ADDED', obj);
    if (opts.sendInitialEvents === true) watcher.send('BOOKMARK', bookmarkObject(current, true));
  } else {
    if (!ctx.window.canResumeFrom(from)) {
      throw new AppError('Expired', `too old resource version: ${from} (${ctx.window.oldestResumable()})`);
    }
    const after = ctx.window.resumeAfter(from);
    watcher.afterRv = after;
    ctx.window.forEachAfter(after, (rv, type, object, previous, source) => {
      if (source.resource === resource) watcher.offer(rv, type, object, previous, source.cluster);
    });
  }
  // Live changes start after whatever was sent.
  watcher.afterRv = Math.max(from, current);
  if (!watcher.isStopped()) ctx.hub.add(resource, watcher);
  return {
    stop: () => {
      watcher.stop();
      ctx.hub.remove(resource, watcher);
    },
    bookmark: () => watcher.send('BOOKMARK', bookmarkObject(ctx.currentRv(), false)),
  };
}

/** bookmarkObject is a BOOKMARK's object; the store does not know the kind, the HTTP layer may add it. */
function bookmarkObject(rv: number, initialEventsEnd: boolean): KubeObject {
  const resourceVersion = String(rv);
  if (!initialEventsEnd) return { metadata: { resourceVersion } };
  return { metadata: { resourceVersion, annotations: { [INITIAL_EVENTS_END]: 'true' } } };
}

/** parseStart reads a watch resourceVersion; unset, '' and '0' all mean "from the current state". */
function parseStart(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  const value = /^\d+$/.test(rv) ? Number(rv) : NaN;
  if (!Number.isSafeInteger(value)) throw invalidResourceVersion(rv);
  return value;
}
