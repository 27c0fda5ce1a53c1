// Small fetch wrappers for talking to the kube-compatible API in tests.

/** JsonResponse is a response with its parsed JSON body. */
export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  readonly body: any;
}

/** request sends a JSON request (or a raw string body) and parses the JSON answer. */
export async function request(
  method: string, url: string, body?: unknown, contentType = 'application/json', headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = contentType;
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text for the assertion message
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/**
 * DEADLINE_MS is how long a test waits for an event or a condition before it fails: generous for
 * a loaded two-core machine, since a deadline costs time only when something is broken.
 */
export const DEADLINE_MS = 30_000;

/** eventually polls an assertion until it passes or the deadline passes (then it throws the last failure). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = DEADLINE_MS, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** crd builds a schemaless CustomResourceDefinition. */
export function crd(opts: { group: string; plural: string; kind: string; scope?: 'Cluster' | 'Namespaced'; versions?: string[] }): Record<string, unknown> {
  const versions = opts.versions ?? ['v1alpha1'];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${opts.plural}.${opts.group}` },
    spec: {
      group: opts.group,
      scope: opts.scope ?? 'Cluster',
      names: { plural: opts.plural, singular: opts.kind.toLowerCase(), kind: opts.kind, listKind: `${opts.kind}List` },
      versions: versions.map((name, i) => ({
        name, served: true, storage: i === 0,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {} },
      })),
    },
  };
}

/** readWatchLines reads NDJSON watch events from a streaming response until `count` arrive or time runs out. */
export async function readWatchLines(
  res: Response, count: number, timeoutMs = DEADLINE_MS,
  until?: (event: { type: string; object: Record<string, unknown> }) => boolean,
): Promise<Array<{ type: string; object: Record<string, unknown> }>> {
  const events: Array<{ type: string; object: Record<string, unknown> }> = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    while (events.length < count) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const event = JSON.parse(buffer.slice(0, newline)) as { type: string; object: Record<string, unknown> };
        events.push(event);
        buffer = buffer.slice(newline + 1);
        if (until?.(event)) return events;
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return events;
}
