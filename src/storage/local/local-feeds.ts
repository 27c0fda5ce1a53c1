// The in-process change feeds of the local backend. One process owns the file, so a feed needs no
// polling: every committed batch is handed to each feed whose prefix matches, as one changes()
// call, right after COMMIT and before the batch's commit promises resolve. A feed that starts from
// a revision in the past is first given what the recent-changes window holds after it.

import type { Change, Feed, FeedHandlers } from '../backend.js';
import type { RecentChanges } from './recent-changes.js';

/** LocalFeeds is the set of running feeds of one backend. */
export class LocalFeeds {
  private readonly feeds = new Set<LocalFeed>();

  /** open starts a feed of changes under prefix after afterRevision; recent supplies the replay. */
  open(prefix: string, afterRevision: number, handlers: FeedHandlers, recent: RecentChanges): Feed {
    const replay = recent.since(afterRevision, prefix);
    const feed = new LocalFeed(prefix, afterRevision, handlers, (ended) => this.feeds.delete(ended));
    if (replay === undefined) {
      feed.endCompacted();
      return feed;
    }
    this.feeds.add(feed);
    feed.start(replay);
    return feed;
  }

  /** deliver hands a committed batch (in revision order) to every feed. */
  deliver(batch: readonly Change[]): void {
    // A handler may open or stop feeds: walk a copy, so the set can change underneath.
    for (const feed of [...this.feeds]) feed.deliver(batch);
  }

  /** stopAll ends every feed without another handler call (the backend is closing). */
  stopAll(): void {
    for (const feed of [...this.feeds]) void feed.stop();
  }
}

/** LocalFeed is one feed: a prefix, the revision it is past, and a backlog while its replay is pending. */
class LocalFeed implements Feed {
  private stopped = false;
  /** backlog holds changes to hand over once the replay runs; undefined once it has. */
  private backlog: Change[] | undefined;

  constructor(
    private readonly prefix: string,
    private readonly afterRevision: number,
    private readonly handlers: FeedHandlers,
    private readonly onEnd: (feed: LocalFeed) => void,
  ) {}

  /** start hands the replay over after the caller has its Feed, ahead of anything committed since. */
  start(replay: Change[]): void {
    if (replay.length === 0) return;
    this.backlog = replay;
    queueMicrotask(() => {
      const backlog = this.backlog ?? [];
      this.backlog = undefined;
      this.call(backlog);
    });
  }

  /** endCompacted tells the handlers, asynchronously, that the feed cannot resume; the feed then ends. */
  endCompacted(): void {
    queueMicrotask(() => {
      if (this.stopped) return;
      this.stopped = true;
      this.onEnd(this);
      guarded(() => this.handlers.compacted());
    });
  }

  deliver(batch: readonly Change[]): void {
    const mine = batch.filter((change) => change.revision > this.afterRevision && change.key.startsWith(this.prefix));
    if (mine.length === 0) return;
    if (this.backlog !== undefined) this.backlog.push(...mine);
    else this.call(mine);
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.backlog = undefined;
    this.onEnd(this);
    return Promise.resolve();
  }

  private call(changes: readonly Change[]): void {
    if (this.stopped || changes.length === 0) return;
    guarded(() => this.handlers.changes(changes));
  }
}

/**
 * guarded runs a handler so that its throw cannot stop the other feeds or the batch's commits from
 * settling; the error is thrown again on its own, where it surfaces as an uncaught exception, as a
 * throwing event listener's would.
 */
function guarded(handler: () => void): void {
  try {
    handler();
  } catch (err) {
    queueMicrotask(() => {
      throw err;
    });
  }
}
