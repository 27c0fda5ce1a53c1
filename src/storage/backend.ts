// The contract of a durable backend under the stores: an ordered key-value log with one global
// revision that never decreases, conditional writes, a consistent list and a change feed that
// resumes from a revision. Each commit gets a revision greater than every earlier commit's; the
// commits a backend applies in one transaction (etcd groups commits that arrive together) share
// theirs, and a feed delivers all the changes of one revision in one batch. etcd v3 is the model (kine gives SQLite the same shape); a store keeps
// its in-memory indexes as the serving path and applies what this feed delivers.
//
// Keys are strings that start with '/', relative to the backend's own namespace (etcd prepends its
// configured prefix and strips it from what it returns). Values are the object's JSON text without
// metadata.resourceVersion: the revision at which a value was written is its resourceVersion, so
// it is never stored twice.

/** BackendKind names the configured backends that implement Backend. */
export type BackendKind = 'local' | 'etcd';

/** StoredEntry is one live key with the revision of its last write. */
export interface StoredEntry {
  readonly key: string;
  readonly value: string;
  readonly modRevision: number;
}

/** BackendOp is one conditional write. create holds only if the key is absent; update and delete only if modRevision is expected. */
export type BackendOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: string }
  | { readonly kind: 'update'; readonly key: string; readonly value: string; readonly expected: number }
  | { readonly kind: 'delete'; readonly key: string; readonly expected: number };

/**
 * OpResult says whether a write held. ok: revision is the write's revision, and the write is
 * durable. Not ok: the condition failed; current is the key's modRevision now (0 = absent) and
 * revision the backend's revision at the time of the check, so the caller can wait for its feed
 * to reach it before it looks again.
 */
export type OpResult =
  | { readonly ok: true; readonly revision: number }
  | { readonly ok: false; readonly current: number; readonly revision: number };

/** BackendList is every live key under a prefix, read at one revision, each as its reader made it. */
export interface BackendList<T = StoredEntry> {
  readonly revision: number;
  readonly entries: readonly T[];
}

/**
 * EntryReader turns a listed entry into what the caller keeps (undefined: skip it). A backend that
 * reads in pages runs it on one page while the next is on its way, so decoding a large key space
 * overlaps the wait for it; a list that starts over (its revision was compacted) reads again.
 */
export type EntryReader<T> = (entry: StoredEntry) => T | undefined;

/** readEach runs read over entries and keeps what it returns. */
export function readEach<T>(entries: readonly StoredEntry[], read: EntryReader<T>, into: T[] = []): T[] {
  for (const entry of entries) {
    const kept = read(entry);
    if (kept !== undefined) into.push(kept);
  }
  return into;
}

/** Change is one committed write seen by a feed. value is absent on delete. */
export interface Change {
  readonly type: 'put' | 'delete';
  readonly key: string;
  readonly value?: string;
  readonly revision: number;
}

/**
 * FeedHandlers receive a feed's output. changes come in revision order, with no gap and no
 * repeat within the feed's prefix, in batches. compacted means the feed cannot resume because
 * its revision was compacted away: the feed has ended and the caller must list again and start
 * a new one. The feed retries transient failures itself and reports them through health().
 */
export interface FeedHandlers {
  readonly changes: (changes: readonly Change[]) => void;
  readonly compacted: () => void;
  /**
   * progress, when given, hears that the feed has delivered everything up to revision although
   * nothing of its prefix changed after the last change it delivered (a backend's own key moved
   * it, e.g. a progress barrier). A feed that has it is one a barrier advances.
   */
  readonly progress?: (revision: number) => void;
}

/** Feed is a running change feed. */
export interface Feed {
  /** stop ends the feed; no handler is called after it resolves. */
  stop(): Promise<void>;
}

/** BackendHealth is what readiness and the metrics say about the backend. */
export interface BackendHealth {
  readonly ok: boolean;
  /** message says what is wrong when ok is false (e.g. "etcd: no endpoint answers"). */
  readonly message?: string;
}

/**
 * Backend is a durable, ordered key-value store. A failure to reach it rejects with an AppError
 * ServiceUnavailable (retryable); a condition that fails is an OpResult, not an error.
 */
export interface Backend {
  readonly kind: BackendKind;
  /** commit applies one conditional write and resolves once it is durable. */
  commit(op: BackendOp): Promise<OpResult>;
  /** list reads every key under prefix at one revision, in key order, each through read if given. */
  list(prefix: string): Promise<BackendList>;
  list<T>(prefix: string, read: EntryReader<T>): Promise<BackendList<T>>;
  /** watch follows every change under prefix with a revision greater than afterRevision. */
  watch(prefix: string, afterRevision: number, handlers: FeedHandlers): Feed;
  /** currentRevision is the backend's revision now (a consistent read's target). */
  currentRevision(): Promise<number>;
  /**
   * barrier, where the backend has one, commits a write that every feed with a progress handler
   * will deliver, and resolves with its revision: once a feed reports that revision, it has
   * delivered every change committed before the barrier. A backend only one process uses (local)
   * has none: that process's reads need no wait for other processes' writes.
   */
  barrier?(): Promise<number>;
  /** health is the last known reachability, without a round trip. */
  health(): BackendHealth;
  /**
   * threadHeap, where the backend runs its client in a worker thread (etcd), is that thread's V8
   * heap: process.memoryUsage() and the runtime's heap metrics see the main thread's alone.
   * Undefined once the thread has ended.
   */
  threadHeap?(): Promise<ThreadHeap | undefined>;
  /** close releases connections and files; pending commits settle first. */
  close(): Promise<void>;
}

/** ThreadHeap is one worker thread's V8 heap, in bytes: what it holds, and what it has reserved. */
export interface ThreadHeap {
  readonly usedBytes: number;
  readonly totalBytes: number;
}
