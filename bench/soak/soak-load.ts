// The soak's load: writers (create, patch, delete on the embedded source), readers (REST,
// GraphQL, cache API) and watchers (cache API watch for replication lag, SSE, embedded watch).
// Each records into a shared Tally; nothing here decides pass or fail.

/** SOAK_GVR is the resource the soak writes and replicates. */
export const SOAK_GVR = { group: 'soak.example.com', version: 'v1', resource: 'things' } as const;
/** SOAK_SCHEMA is its schema string. */
export const SOAK_SCHEMA = 'v1.things.soak.example.com';
/** STABLE: objects never deleted, so point reads of them must always answer 200. */
export const STABLE = 50;

/** Tally counts requests and errors, and collects lag samples (ms) of the current interval. */
export class Tally {
  requests = 0;
  errors = 0;
  watchEvents = 0;
  lags: number[] = [];
  readonly errorSamples: string[] = [];

  /** error counts one error and keeps the first few for the report. */
  error(what: string): void {
    this.errors += 1;
    if (this.errorSamples.length < 10) this.errorSamples.push(what);
  }
}

/**
 * LagTracker measures replication lag per object name: from its oldest write not yet seen in
 * the cache until a copy at least as new as its newest write. Replication is level-based and may
 * skip versions, so versions are compared, not matched. A copy can arrive before the writer has
 * read its response, so the newest copy of each name is remembered too.
 */
class LagTracker {
  readonly #pending = new Map<string, { readonly at: number; rv: number }>();
  readonly #copied = new Map<string, number>();
  readonly #tally: Tally;

  constructor(tally: Tally) {
    this.#tally = tally;
  }

  wrote(name: string, rv: number, at: number): void {
    if ((this.#copied.get(name) ?? 0) >= rv) return void this.#tally.lags.push(Date.now() - at);
    const pending = this.#pending.get(name);
    if (pending) pending.rv = rv;
    else this.#pending.set(name, { at, rv });
  }

  copied(name: string, rv: number): void {
    this.#copied.set(name, rv);
    const pending = this.#pending.get(name);
    if (pending === undefined || rv < pending.rv) return;
    this.#pending.delete(name);
    this.#tally.lags.push(Date.now() - pending.at);
  }

  deleted(name: string): void {
    this.#pending.delete(name);
    this.#copied.delete(name);
  }
}

/** Load is the running load; stop() ends it and waits for every loop. */
export interface Load {
  stop(): Promise<void>;
}

/** startLoad runs writers, readers and watchers against base until stopped. */
export function startLoad(base: string, tally: Tally, opts: { writers: number; readers: number; writesPerSecond: number }): Load {
  const abort = new AbortController();
  const written = new LagTracker(tally);
  const loops = [
    ...Array.from({ length: opts.writers }, (_, w) => writer(base, w, tally, written, abort.signal, opts.writesPerSecond / opts.writers)),
    ...Array.from({ length: opts.readers }, (_, r) => reader(base, r, tally, abort.signal)),
    watchLag(base, tally, written, abort.signal),
    countEvents(`${base}/v1/cachedobjects?watch=true&schema=${SOAK_SCHEMA}`, 'text/event-stream', tally, abort.signal),
    countEvents(`${thingsUrl(base)}?watch=true`, 'application/json', tally, abort.signal),
  ];
  return {
    stop: async () => {
      abort.abort();
      await Promise.all(loops);
    },
  };
}

/** thingsUrl is the embedded source's collection of SOAK_GVR in cluster root. */
export function thingsUrl(base: string): string {
  return `${base}/clusters/root/apis/${SOAK_GVR.group}/${SOAK_GVR.version}/${SOAK_GVR.resource}`;
}

async function writer(base: string, id: number, tally: Tally, written: LagTracker, signal: AbortSignal, perSecond: number): Promise<void> {
  const url = thingsUrl(base);
  const live: string[] = [];
  for (let i = 0; !signal.aborted; i++) {
    const started = Date.now();
    const roll = live.length < 20 ? 0 : i % 4;
    const name = roll === 0 ? `w${id}-${i}` : live[i % live.length]!;
    const res = roll === 0 ? await send('POST', url, { metadata: { name }, spec: { i } }, tally)
      : roll === 3 ? await send('DELETE', `${url}/${name}`, undefined, tally)
        : await send('PATCH', `${url}/${name}`, { spec: { i } }, tally, 'application/merge-patch+json');
    if (res) {
      if (roll === 0) live.push(name);
      if (roll === 3) {
        live.splice(live.indexOf(name), 1);
        written.deleted(name);
      } else written.wrote(name, Number((res as { metadata: { resourceVersion: string } }).metadata.resourceVersion), started);
    }
    await pause(Math.max(0, 1000 / perSecond - (Date.now() - started)), signal);
  }
}

async function reader(base: string, id: number, tally: Tally, signal: AbortSignal): Promise<void> {
  const reads = [
    () => send('GET', `${base}/v1/objects/${SOAK_GVR.group}/${SOAK_GVR.version}/${SOAK_GVR.resource}/stable-${id % STABLE}?cluster=root`, undefined, tally),
    () => send('GET', `${base}/v1/schemas/${SOAK_SCHEMA}/objects?limit=50`, undefined, tally),
    () => send('POST', `${base}/graphql`, { query: `{ cachedObjects(filter: {schema: "${SOAK_SCHEMA}"}, first: 20) { edges { node { metadata { name } } } } }` }, tally),
    () => send('GET', `${base}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?limit=50`, undefined, tally),
  ];
  for (let i = id; !signal.aborted; i++) {
    const body = await reads[i % reads.length]!();
    if (body && typeof body === 'object' && 'errors' in body) tally.error(`graphql: ${JSON.stringify((body as { errors: unknown }).errors).slice(0, 200)}`);
    await pause(5, signal);
  }
}

/** send makes one request; a non-2xx answer or a network error counts as an error (undefined). */
async function send(method: string, url: string, body: unknown, tally: Tally, contentType = 'application/json'): Promise<unknown> {
  tally.requests += 1;
  try {
    const res = await fetch(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': contentType } }) });
    const text = await res.text();
    if (res.status >= 300) {
      tally.error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
      return undefined;
    }
    return JSON.parse(text) as unknown;
  } catch (err) {
    tally.error(`${method} ${url}: ${String(err)}`);
    return undefined;
  }
}

/** watchLag follows the cache API and turns each copy of a written version into a lag sample. */
async function watchLag(base: string, tally: Tally, written: LagTracker, signal: AbortSignal): Promise<void> {
  const url = `${base}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?watch=true&labelSelector=cache.kcp.io%2Fobject-schema%3D${SOAK_SCHEMA}`;
  await follow(url, 'application/json', signal, tally, (line) => {
    const event = JSON.parse(line) as { type: string; object: { spec?: { raw?: { metadata: { name: string; resourceVersion: string } } } } };
    const raw = event.object.spec?.raw;
    if (!raw || event.type === 'DELETED') return;
    written.copied(raw.metadata.name, Number(raw.metadata.resourceVersion));
  });
}

async function countEvents(url: string, accept: string, tally: Tally, signal: AbortSignal): Promise<void> {
  await follow(url, accept, signal, tally, (line) => {
    if (line.startsWith('{') || line.startsWith('data:')) tally.watchEvents += 1;
  });
}

/** follow reads a stream line by line, re-opening it when the server ends it (watch timeouts). */
async function follow(url: string, accept: string, signal: AbortSignal, tally: Tally, onLine: (line: string) => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch(url, { headers: { accept }, signal });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line) onLine(line);
        }
      }
    } catch (err) {
      if (!signal.aborted) tally.error(`watch ${url}: ${String(err)}`);
      await pause(1000, signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
