// Where a backend's keys live in etcd: every key the backend is given ('/…') is stored under the
// configured prefix, so several deployments (or tests) can share one etcd, and what etcd returns
// is stripped back to the backend's own view.

/** DEFAULT_ETCD_PREFIX is where keys live when no prefix is configured. */
export const DEFAULT_ETCD_PREFIX = '/cachegate';

/**
 * COMPACT_REV_KEY is the key, relative to the prefix, through which the processes sharing a prefix
 * agree who compacts (its version is their logical clock). It is reserved: lists and feeds skip it
 * and commits may not write it.
 */
export const COMPACT_REV_KEY = '/compact_rev_key';

/**
 * PROGRESS_KEY is the key, under a store's space (`/<space>/~progress`), that a progress barrier
 * writes so that the space's feed sees a revision at least as new as the barrier's (see
 * EtcdBackend.barrier). It is reserved like COMPACT_REV_KEY. No object key has two segments only.
 */
const PROGRESS_KEY = /^\/[^/]+\/~progress$/;

/** EtcdRange is a key range as etcd's range and watch requests take it: [key, range_end). */
export interface EtcdRange {
  readonly key: Buffer;
  readonly range_end: Buffer;
}

/** EtcdKeyspace maps the backend's keys to etcd keys under one prefix and back. */
export class EtcdKeyspace {
  private readonly prefix: string;
  private readonly prefixBytes: number;

  constructor(prefix: string) {
    // '/cachegate/' and '/cachegate' are the same namespace: keys bring their own leading '/'.
    this.prefix = prefix.replace(/\/+$/, '');
    this.prefixBytes = Buffer.byteLength(this.prefix);
  }

  /** etcdKey is where a backend key is stored. */
  etcdKey(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  /** backendKey strips the prefix from a key etcd returned. */
  backendKey(etcdKey: Buffer): string {
    return etcdKey.subarray(this.prefixBytes).toString();
  }

  /** rangeOf is every etcd key that starts with the prefix plus keyPrefix ('' means all of the backend's keys). */
  rangeOf(keyPrefix: string): EtcdRange {
    // Without the '/', '/cachegate' would also cover another deployment's '/cachegate-b/…'.
    const key = this.etcdKey(keyPrefix === '' ? '/' : keyPrefix);
    return { key, range_end: prefixEnd(key) };
  }

  /** compactKey is the etcd key of COMPACT_REV_KEY. */
  compactKey(): Buffer {
    return this.etcdKey(COMPACT_REV_KEY);
  }

  /** progressKey is the barrier key of a space prefix ('/<space>/'), or undefined for a prefix that is not one. */
  progressKey(spacePrefix: string): string | undefined {
    const key = `${spacePrefix}~progress`;
    return PROGRESS_KEY.test(key) ? key : undefined;
  }

  /** isReserved tells whether a backend key is one the backend keeps for itself. */
  isReserved(key: string): boolean {
    return key === COMPACT_REV_KEY || PROGRESS_KEY.test(key);
  }

  /** isReservedEtcdKey is isReserved for a key as etcd returned it. */
  isReservedEtcdKey(etcdKey: Buffer): boolean {
    return this.isReserved(this.backendKey(etcdKey));
  }
}

/** prefixEnd is the smallest key greater than every key that starts with prefix, as etcd defines it. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  // Every byte is 0xff: no key is greater, and etcd reads "\0" as "to the end of the keyspace".
  return Buffer.from([0]);
}
