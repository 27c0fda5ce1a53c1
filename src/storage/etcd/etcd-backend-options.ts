// The etcd backend's options, in a file of their own: the client thread's start message is made
// of them too, and the thread's protocol must not import the backend that starts the thread.

import type { EtcdTlsFiles } from './etcd-client.js';

/** EtcdBackendOptions configures the etcd backend. */
export interface EtcdBackendOptions {
  /** endpoints are the members' client URLs (http://host:port, or https:// with tls). */
  readonly endpoints: readonly string[];
  /** prefix is where the backend's keys live in etcd; default '/cachegate'. */
  readonly prefix?: string;
  /** tls names PEM files, read at open; one that cannot be read is a StorageOpenError. */
  readonly tls?: EtcdTlsFiles;
  /** dialTimeoutMs bounds the first contact at open and each health probe; default 5,000. */
  readonly dialTimeoutMs?: number;
  /** requestTimeoutMs bounds every call, retries included; default 10,000. */
  readonly requestTimeoutMs?: number;
  /** compactIntervalMs is how often etcd is compacted (to the previous tick's revision); 0 disables; default 5 min. */
  readonly compactIntervalMs?: number;
  /**
   * clientThread runs commits, lists and feeds on a second etcd client in a worker thread (see
   * etcd-client-thread.ts); the calls of leader election, shared records and probes stay here.
   */
  readonly clientThread?: boolean;
}
