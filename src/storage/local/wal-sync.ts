// Making committed batches durable off the event loop. SQLite's own fsync at COMMIT (synchronous=
// FULL) runs on the thread that commits, and node:sqlite commits on the main thread: at 2,000
// writes/s the fsyncs alone kept the event loop busy a quarter of the time. Instead the database
// runs with synchronous=NORMAL (SQLite still syncs the WAL before each checkpoint and the database
// after it) and this syncs the WAL file with fdatasync on libuv's thread pool. One sync covers
// every batch committed before it started; batches committed while one runs share the next.

import { close, fdatasync, open } from 'node:fs';

/** WalSyncer makes the WAL file's written frames durable: the default opens it and runs fdatasync on the thread pool. */
export interface WalSyncer {
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** WalSync runs one sync at a time; sync() resolves once a sync that started after the call has finished. */
export class WalSync {
  readonly #syncer: WalSyncer;
  /** queued is the sync that has not started yet, which new callers share. */
  #queued: Promise<void> | undefined;
  /** last is the latest sync asked for, running or queued. */
  #last: Promise<void> = Promise.resolve();

  constructor(syncer: WalSyncer) {
    this.#syncer = syncer;
  }

  /** sync resolves once everything written before the call is durable; it rejects with the sync's error. */
  sync(): Promise<void> {
    if (this.#queued !== undefined) return this.#queued;
    const queued = this.#last.catch(() => undefined).then(() => {
      this.#queued = undefined;
      return this.#syncer.sync();
    });
    this.#queued = queued;
    this.#last = queued;
    return queued;
  }

  /** settled resolves once no sync runs or waits, whatever their outcome. */
  async settled(): Promise<void> {
    for (;;) {
      const last = this.#last;
      await last.catch(() => undefined);
      if (last === this.#last) return;
    }
  }

  close(): Promise<void> {
    return this.#syncer.close();
  }
}

/** fileSyncer syncs the file at path (opened on first use) with fdatasync on the thread pool. */
export function fileSyncer(path: string): WalSyncer {
  let fd: Promise<number> | undefined;
  const opened = (): Promise<number> => (fd ??= new Promise((resolve, reject) => open(path, 'r', (err, opened) => (err ? reject(err) : resolve(opened)))));
  return {
    sync: async () => {
      const handle = await opened();
      await new Promise<void>((resolve, reject) => fdatasync(handle, (err) => (err ? reject(err) : resolve())));
    },
    close: async () => {
      if (fd === undefined) return;
      const handle = await fd.catch(() => undefined);
      if (handle !== undefined) await new Promise<void>((resolve) => close(handle, () => resolve()));
    },
  };
}
