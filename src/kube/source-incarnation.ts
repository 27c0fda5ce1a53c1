// Signs that a source is no longer the one a reflector has been following: its resourceVersions
// went backwards, or its identity changed. A real API server never goes back in time, but one
// that restarted with its state lost (an in-memory server, a rebuilt cluster behind the same
// address) does, and a reflector that trusted its old versions would wait silently for changes
// that will never come, or skip the new server's first events.

/** SourceIncarnation remembers the newest version and the identity seen of one source. */
export class SourceIncarnation {
  #newest = '';
  #identity: string | undefined;

  /** identity is the source identity recorded at the last list (undefined: unknown, not checked). */
  get identity(): string | undefined {
    return this.#identity;
  }

  /**
   * listed records a fresh list: its identity and version become the reference. It tells whether
   * the list went back in time (older than a version already seen), for the logs.
   */
  listed(identity: string | undefined, resourceVersion: string): boolean {
    const rewound = isOlder(resourceVersion, this.#newest);
    this.#identity = identity;
    this.#newest = resourceVersion;
    return rewound;
  }

  /** seen records a watch event's version; false when it is older than one already seen (the source rewound). */
  seen(resourceVersion: string): boolean {
    if (isOlder(resourceVersion, this.#newest)) return false;
    this.#newest = resourceVersion;
    return true;
  }

  /** isAnother tells whether an identity read now shows another incarnation than the one listed. */
  isAnother(identity: string | undefined): boolean {
    return this.#identity !== undefined && identity !== undefined && identity !== this.#identity;
  }
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * isOlder compares two resourceVersions when both are plain decimals (as every etcd-backed and
 * kcp server writes them): shorter is smaller, else the strings order as the numbers do. Anything
 * else is opaque and never called older.
 */
export function isOlder(a: string, b: string): boolean {
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return false;
  return a.length !== b.length ? a.length < b.length : a < b;
}
