// Small HTTP helpers the process-level benchmarks share: seeding a server, waiting for it, and
// finding a free loopback port for it.


/** post sends a JSON body and fails loudly on anything but success. */
export async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

/** waitFor polls a URL until ok says so (default: HTTP 200), for at most a minute. */
export async function waitFor(url: string, ok: (res: Response) => Promise<boolean> = async (res) => res.status === 200): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if (await ok(await fetch(url))) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never became ready`);
}

/**
 * fetchPastShedding is fetch that waits out load shedding: a 503 (the server's event loop was
 * stalled) is retried after its Retry-After, capped at 1 s, for at most a minute. A GET sent on a
 * pooled connection the server closed at that moment (its keep-alive timeout, after a minute of
 * load from wrk on other connections), or answered 408, is sent again once.
 */
export async function fetchPastShedding(url: string, init?: RequestInit): Promise<Response> {
  const deadline = performance.now() + 60_000;
  for (let timedOut = false; ;) {
    const res = await fetchOnOpenConnection(url, init);
    // A 408 on a pooled connection can be the answer a server gave to that connection's headers
    // timeout, read by the next request sent on it: cachegate once wrote one to a connection this
    // process's fetch had opened and left unused for a minute (it now closes such a connection
    // without an answer). Go's HTTP client sends a request again after a 408 on a reused
    // connection; so does this, once, and says so.
    if (res.status === 408 && !timedOut && (init?.method ?? 'GET') === 'GET') {
      console.warn(`${url}: 408 on a pooled connection; sent again`);
      timedOut = true;
      await res.body?.cancel();
      continue;
    }
    if (res.status !== 503 || performance.now() > deadline) return res;
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Number(res.headers.get('retry-after') ?? 1) * 1000)));
  }
}

async function fetchOnOpenConnection(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const closed = (err as { cause?: { code?: unknown } }).cause?.code === 'UND_ERR_SOCKET';
    if (!closed || (init?.method ?? 'GET') !== 'GET') throw err;
    return fetch(url, init);
  }
}

/** freePort: the tests' ports (below the kernel's ephemeral range), so a port handed out is not taken by a listen(0) meanwhile. */
export { freePort } from '../../test/helpers/free-port.js';
