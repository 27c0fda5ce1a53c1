// The dashboard's only way to the server: its public HTTP APIs, on the origin that served the
// page. Every request carries the tab's bearer token when there is one. A 401 clears the token
// and asks for a new one (onUnauthorized shows the prompt); any other failure is an ApiError
// carrying the Kubernetes Status message the API answered, to be shown as the API worded it.

import type { KubeStatus } from './api-types.js';
import type { TokenStore } from './token-store.js';

/** Query is a request's query parameters; undefined leaves one out. */
export type Query = Readonly<Record<string, string | undefined>>;

/** ApiError is a refused request: its HTTP status and the API's own message. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly reason?: string) {
    super(message);
    this.name = 'ApiError';
  }
}

/** UnauthorizedError is a 401: the prompt for a token is already shown. */
export class UnauthorizedError extends ApiError {
  constructor(message: string) {
    super(401, message, 'Unauthorized');
    this.name = 'UnauthorizedError';
  }
}

/** Answer is a successful response: its body and headers. */
export interface Answer<T> {
  readonly body: T;
  readonly headers: Headers;
}

/**
 * apiRootOf is the service's root URL for a page served at `<root>ui` or `<root>ui/`, so the
 * dashboard also works behind a proxy that mounts the service under a path prefix.
 */
export function apiRootOf(location: Location): URL {
  return new URL(location.pathname.endsWith('/') ? '../' : './', location.href);
}

/** ApiClient sends requests to the service with the tab's token. */
export class ApiClient {
  /** awaitingToken is set by a 401 and cleared by the next request that has a token to send. */
  private awaitingToken = false;

  constructor(
    private readonly root: URL,
    private readonly tokens: TokenStore,
    /** onUnauthorized hears every 401; refused: the request carried a token. */
    private readonly onUnauthorized: (refused: boolean) => void,
  ) {}

  /** url is a path of the service (no leading slash) with its query. */
  url(path: string, query: Query = {}): URL {
    const url = new URL(path, this.root);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    return url;
  }

  /** json GETs a JSON answer. */
  async json<T>(path: string, query: Query = {}): Promise<Answer<T>> {
    const res = await this.send(path, query, { accept: 'application/json' });
    return { body: (await res.json()) as T, headers: res.headers };
  }

  /** text GETs a text answer (probes, metrics). */
  async text(path: string, query: Query = {}): Promise<string> {
    return (await this.send(path, query, { accept: 'text/plain' })).text();
  }

  /**
   * probe GETs a text answer whatever its status (other than 401): /readyz answers 503 with the
   * same list of checks that it answers 200 with.
   */
  async probe(path: string, query: Query = {}): Promise<{ readonly status: number; readonly text: string }> {
    const res = await this.request(path, query, { accept: 'text/plain' });
    return { status: res.status, text: await res.text() };
  }

  /**
   * send sends a GET and returns a successful response with its body unread (an event stream
   * reads it as it comes). The signal ends it, body included.
   */
  async send(path: string, query: Query, headers: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<Response> {
    const res = await this.request(path, query, headers, signal);
    if (res.ok) return res;
    const status = await statusOf(res);
    throw new ApiError(res.status, status.message ?? `HTTP ${res.status} ${res.statusText}`, status.reason);
  }

  /** request sends a GET with the token; a 401 asks for another token and throws. */
  private async request(path: string, query: Query, headers: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<Response> {
    const token = this.tokens.get();
    // Refused once without a token: the polls wait for one rather than collect 401s meanwhile.
    if (this.awaitingToken && token === null) throw new UnauthorizedError('a token is needed');
    this.awaitingToken = false;
    const res = await fetch(this.url(path, query), {
      headers: { ...headers, ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      cache: 'no-store',
      ...(signal === undefined ? {} : { signal }),
    });
    if (res.status !== 401) return res;
    const status = await statusOf(res);
    // A 401 to a token the user has replaced meanwhile says nothing about the new one.
    if (this.tokens.get() === token) {
      this.tokens.clear();
      this.awaitingToken = true;
      this.onUnauthorized(token !== null);
    }
    throw new UnauthorizedError(status.message ?? 'a token is needed');
  }
}

/** statusOf reads an error answer's Status; a body that is not one gives an empty Status. */
async function statusOf(res: Response): Promise<Partial<KubeStatus>> {
  try {
    const body = (await res.json()) as unknown;
    return typeof body === 'object' && body !== null ? (body as Partial<KubeStatus>) : {};
  } catch {
    return {};
  }
}
