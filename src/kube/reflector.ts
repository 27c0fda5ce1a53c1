// cachegate's own informer: list, then watch from the list's resourceVersion, forever. Unlike
// client-node 1.4.0's ListWatch it keys objects by logical cluster too, and it never gives up:
// a stream the server ends is re-watched at once, an expired resourceVersion (410) is re-listed,
// and any other failure is retried with capped exponential backoff (see README.md here).

import type { Logger } from 'pino';
import { isAppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { schemaOf } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { Backoff } from './backoff.js';
import type { BackoffOptions } from './backoff.js';
import type { DynamicClient, ListPage } from './dynamic-client.js';
import { InformerCache } from './informer-cache.js';
import type { InformerHandler } from './informer-cache.js';
import type { InformerRestarts } from './informer-metrics.js';
import { ReflectorHealth } from './reflector-health.js';
import { ReflectorWatch } from './reflector-watch.js';
import type { SourceConnection } from './source-connection.js';
import { clusterOf } from './source-connection.js';
import { SourceIncarnation } from './source-incarnation.js';
import { sourceIdentity } from './source-identity.js';
import { RELIST_OUTCOMES, RELIST_REASONS } from './watch-session.js';
import { InterruptiblePause } from './interruptible-pause.js';

/** ReflectorOptions configure one reflector; cluster undefined watches every cluster of a kcp source. */
export interface ReflectorOptions {
  readonly source: SourceConnection;
  readonly client: DynamicClient;
  readonly gvr: GroupVersionResource;
  readonly cluster: string | undefined;
  readonly labelSelector?: string;
  readonly log: Logger;
  readonly backoff?: BackoffOptions;
  /** restarts counts this reflector's restarts in the app's metrics. */
  readonly restarts?: InformerRestarts;
  /** afterList is a test hook that runs between each list and the watch that follows it. */
  readonly afterList?: () => Promise<void>;
}

/** Reflector keeps a store of one resource of one source in step with the source. */
export class Reflector {
  readonly source: SourceConnection;
  readonly gvr: GroupVersionResource;
  readonly cluster: string | undefined;
  readonly labelSelector: string | undefined;
  readonly #opts: ReflectorOptions;
  readonly #log: Logger;
  readonly #cache: InformerCache;
  readonly #backoff: Backoff;
  readonly #health: ReflectorHealth;
  readonly #incarnation = new SourceIncarnation();
  readonly #watch: ReflectorWatch;
  #started = false;
  #stopped = false;
  #synced = false;
  #listAbort: AbortController | undefined;
  readonly #pause = new InterruptiblePause();

  constructor(opts: ReflectorOptions) {
    this.#opts = opts;
    this.source = opts.source;
    this.gvr = opts.gvr;
    this.cluster = opts.cluster;
    this.labelSelector = opts.labelSelector || undefined;
    const resource = schemaOf(opts.gvr);
    this.#log = opts.log.child({ source: opts.source.name, resource, cluster: opts.cluster ?? '*' });
    this.#cache = new InformerCache((obj) => clusterOf(opts.source, obj), this.#log, opts.client.sharedValues);
    this.#backoff = new Backoff(opts.backoff);
    this.#health = new ReflectorHealth({ source: opts.source.name, resource, log: this.#log, ...(opts.restarts ? { restarts: opts.restarts } : {}) });
    const { source, gvr, cluster, labelSelector } = this;
    this.#watch = new ReflectorWatch({ source, gvr, cluster, labelSelector, cache: this.#cache, incarnation: this.#incarnation, backoff: this.#backoff, health: this.#health });
  }

  /** start begins listing and watching in the background; calling it again does nothing. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#health.waiting('not synced yet');
    void this.#run();
  }

  /** stop ends the watch for good; no handler is called after it returns, and its metric series go. */
  stop(): void {
    this.#stopped = true;
    this.#health.release();
    this.#cache.silence();
    this.#watch.stop();
    this.#listAbort?.abort();
    this.#pause.stop();
  }

  /** hasSynced tells whether the first list has been stored (it stays true through reconnects). */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** lastError says why the reflector is not connected right now, or undefined when it is. */
  lastError(): string | undefined {
    return this.#health.lastError;
  }

  /** failingSince is when the current run of list/watch failures began (ISO time), undefined while connected. */
  failingSince(): string | undefined {
    return this.#health.failingSince;
  }

  /**
   * resourceVersion is the last resourceVersion this reflector has seen from the source (of its
   * list, of a watch event, or of a BOOKMARK); '' before the first list. Every event up to it has
   * been stored and handed to the handlers.
   */
  get resourceVersion(): string {
    return this.#watch.resourceVersion;
  }

  /** restarts counts re-lists and re-watches after errors and expired resourceVersions. */
  get restarts(): number {
    return this.#health.restarts;
  }

  /** get reads one object from the store. */
  get(cluster: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#cache.get(cluster, namespace, name);
  }

  /** size is the number of objects in the store. */
  get size(): number {
    return this.#cache.size;
  }

  /** list is a snapshot of every object in the store. */
  list(): Iterable<KubeObject> {
    return [...this.#cache.values()];
  }

  /** adopt keeps equal, a deep-equal frozen object held elsewhere, in place of stored (see InformerCache.adopt). */
  adopt(stored: KubeObject, equal: KubeObject): void {
    this.#cache.adopt(stored, equal);
  }

  /** addHandler registers a handler and returns its remover; it first replays `add` for every object held. */
  addHandler(handler: InformerHandler): () => void {
    return this.#cache.addHandler(handler);
  }

  async #run(): Promise<void> {
    let relist = true;
    while (!this.#stopped) {
      try {
        if (relist) await this.#list();
        else if (await this.#restartedSinceList()) {
          relist = true;
          this.#health.behind('the source has another identity than at the last list (it restarted); relisting');
          continue;
        }
        relist = false;
        if (this.#stopped) return;
        const outcome = await this.#watch.run();
        if (this.#stopped) return;
        relist = RELIST_OUTCOMES.has(outcome);
        // An expired version is routine (the server compacted); the others mean the source restarted.
        if (outcome === 'gone') this.#health.restarted(RELIST_REASONS[outcome] ?? 'relisting');
        else if (relist) this.#health.behind(RELIST_REASONS[outcome] ?? 'relisting');
        // A 410 storm (every watch refused as too old) must not turn into a list-watch hot loop.
        if (relist || outcome === 'short') await this.#pause.sleep(this.#backoff.next());
      } catch (err) {
        if (this.#stopped) return;
        if (isAppError(err, 'Expired') || isAppError(err, 'Gone')) {
          relist = true;
          this.#health.restarted('the list expired (410); relisting');
          await this.#pause.sleep(this.#backoff.next());
          continue;
        }
        this.#health.failed(err);
        await this.#pause.sleep(this.#backoff.next());
      }
    }
  }

  async #list(): Promise<void> {
    const controller = new AbortController();
    this.#listAbort = controller;
    const { client, gvr, cluster } = this.#opts;
    // The identity is read before the list, so a restart between the two shows up at the next check.
    const identity = await sourceIdentity(client);
    const listed = await client.listPages(cluster, gvr, { labelSelector: this.labelSelector, signal: controller.signal });
    this.#listAbort = undefined;
    if (this.#stopped) return;
    if (this.#incarnation.listed(identity, listed.resourceVersion)) {
      this.#log.warn({ resourceVersion: listed.resourceVersion, previous: this.#watch.resourceVersion }, 'the source went back in time; its list replaces everything');
    }
    await this.#cache.replace(itemsOf(listed.pages));
    if (this.#stopped) return;
    this.#watch.resumeFrom(listed.resourceVersion);
    this.#synced = true;
    this.#health.connected();
    // No backoff reset here: a server may list fine and refuse every watch. Only a watch that
    // delivers an event proves the connection healthy (firstEvent in reflector-watch.ts).
    this.#log.debug({ objects: this.#cache.size, resourceVersion: listed.resourceVersion }, 'listed');
    await this.#opts.afterList?.();
  }

  /** #restartedSinceList reads the source's identity before a re-watch: another one means it restarted. */
  async #restartedSinceList(): Promise<boolean> {
    if (this.#incarnation.identity === undefined) return false;
    return this.#incarnation.isAnother(await sourceIdentity(this.#opts.client));
  }
}

/** itemsOf walks the items of the pages in order, without joining them into one array. */
function* itemsOf(pages: readonly ListPage[]): IterableIterator<KubeObject> {
  for (const page of pages) yield* page.items;
}
