// One running watch: its scope and selectors, and the Kubernetes rule that turns a change into
// what this watcher sees. A change is judged on both versions of the object: when the previous
// version matched and the new one does not, the watcher sees DELETED (the object left its view);
// the other way round it sees ADDED.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { FieldSelector, LabelSelector } from '../apimachinery/selector.js';
import type { ChangeType } from './event-window.js';
import type { ObjectFilter, WatchEventType, WatchListener } from './store.js';

/** WatcherSpec is what a watcher filters on; undefined fields filter nothing. */
export interface WatcherSpec {
  readonly cluster?: string;
  readonly namespace?: string;
  readonly labelSelector?: LabelSelector;
  readonly fieldSelector?: FieldSelector;
  readonly where?: ObjectFilter;
}

/** ListenerErrorHandler is told when a listener throws; that watcher is stopped. */
export type ListenerErrorHandler = (error: unknown) => void;

/** Watcher filters and delivers events to one listener. */
export class Watcher {
  /** afterRv: live changes at or below it were already sent (or predate the requested start). */
  afterRv = 0;
  private stopped = false;
  private readonly cluster: string | undefined;
  private readonly namespace: string | undefined;
  private readonly labelSelector: LabelSelector | undefined;
  private readonly fieldSelector: FieldSelector | undefined;
  private readonly where: ObjectFilter | undefined;
  private readonly listener: WatchListener;
  private readonly onError: ListenerErrorHandler;

  constructor(spec: WatcherSpec, listener: WatchListener, onError: ListenerErrorHandler) {
    this.cluster = spec.cluster;
    this.namespace = spec.namespace;
    // Empty selectors select everything; dropping them keeps the hot path to two comparisons.
    this.labelSelector = spec.labelSelector?.empty === false ? spec.labelSelector : undefined;
    this.fieldSelector = spec.fieldSelector?.empty === false ? spec.fieldSelector : undefined;
    this.where = spec.where;
    this.listener = listener;
    this.onError = onError;
  }

  /** matches tells whether an object passes this watcher's selectors. */
  matches(obj: KubeObject): boolean {
    if (this.labelSelector !== undefined && !this.labelSelector.matches(obj.metadata.labels)) return false;
    if (this.where !== undefined && !this.where.matches(obj)) return false;
    return this.fieldSelector === undefined || this.fieldSelector.matches(obj);
  }

  /** offer delivers a committed change of version rv in cluster, translated for this watcher. */
  offer(rv: number, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, cluster: string): void {
    if (this.stopped || rv <= this.afterRv) return;
    if (this.cluster !== undefined && cluster !== this.cluster) return;
    if (this.namespace !== undefined && (object.metadata.namespace ?? '') !== this.namespace) return;
    const nowIn = type !== 'DELETED' && this.matches(object);
    const wasIn = previous !== undefined && this.matches(previous);
    if (nowIn) this.send(wasIn ? 'MODIFIED' : 'ADDED', object);
    else if (wasIn) this.send('DELETED', object);
  }

  /** send delivers one event as is, unless the watcher was stopped. */
  send(type: WatchEventType, object: KubeObject): void {
    if (this.stopped) return;
    try {
      this.listener({ type, object });
    } catch (error) {
      // A throwing listener has lost its stream; stop it so the writer and other watchers go on.
      this.stopped = true;
      this.onError(error);
    }
  }

  /** stop ends deliveries at once. */
  stop(): void {
    this.stopped = true;
  }

  /** isStopped tells whether the watcher was stopped. */
  isStopped(): boolean {
    return this.stopped;
  }
}
