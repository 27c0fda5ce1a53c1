// The HTTP layer of one source: a kubeconfig (auth, TLS, proxy) turned into plain requests and
// watch streams. This file and nothing else touches @kubernetes/client-node's KubeConfig, so the
// rest of cachegate sees only its own types. Requests and watches go through undici's fetch, as
// client-node's own do: the kubeconfig's headers come with an undici dispatcher for TLS and proxy.
// Watch streams are read here rather than by client-node's Watch, which ends any watch that has
// carried no data for 30 s: a quiet resource would be re-watched, and re-checked, forever.

import { STATUS_CODES } from 'node:http';
import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { fetch } from 'undici';
import type { HeadersInit, Response } from 'undici';
import { DispatcherReuse } from './dispatcher-reuse.js';
import { peekedText, readEvents } from './response-bodies.js';

/** REQUEST_TIMEOUT_MS bounds a non-watch request, so a hung server cannot stall a reflector forever. */
const REQUEST_TIMEOUT_MS = 30_000;

/** TransportRequest is one non-watch request: a path (with query) below the server URL. */
export interface TransportRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  /**
   * peek sees the start of the body (at most PEEK_CHARS characters) as it arrives, before the rest
   * has: a list's continue token comes first, so the next page can be asked for while this one is
   * still on its way. It is called until it returns true or the start has been seen.
   */
  readonly peek?: (start: string) => boolean;
}

/** TransportResponse is a source's answer: HTTP status and body text. */
export interface TransportResponse {
  readonly status: number;
  readonly body: string;
}

/** TransportFailure is why a watch stream ended; absent when it ended cleanly. */
export interface TransportFailure {
  readonly message: string;
  /** status is the HTTP status when the server refused the watch (410 = resourceVersion too old). */
  readonly status?: number;
  /** aborted: the stream was ended by our own abort(), not by the server or the network. */
  readonly aborted: boolean;
}

/** WatchStream is an open watch; abort() ends it. */
export interface WatchStream {
  abort(): void;
}

/** WatchCallbacks receive a watch's events and, once, its end. */
export interface WatchCallbacks {
  event(type: string, object: unknown): void;
  end(failure: TransportFailure | undefined): void;
}

/** SourceTransport sends requests and opens watches with one kubeconfig's credentials. */
export class SourceTransport {
  readonly #kubeConfig: KubeConfig;
  readonly #dispatchers = new DispatcherReuse();
  /** server is the base URL of the kubeconfig's current cluster. */
  readonly server: string;

  private constructor(kubeConfig: KubeConfig) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error(`no cluster for context "${kubeConfig.getCurrentContext()}"`);
    this.#kubeConfig = cluster.server.startsWith('http:') && !cluster.skipTLSVerify ? withoutTlsVerify(kubeConfig) : kubeConfig;
    this.server = cluster.server.replace(/\/+$/, '');
  }

  /** fromFile loads a kubeconfig file (or the default locations when file is undefined) and selects a context. */
  static fromFile(file: string | undefined, context?: string): SourceTransport {
    const kc = new KubeConfig();
    if (file === undefined) kc.loadFromDefault();
    else kc.loadFromFile(file);
    if (context !== undefined) {
      if (!kc.getContextObject(context)) throw new Error(`context "${context}" is not in the kubeconfig`);
      kc.setCurrentContext(context);
    }
    return new SourceTransport(kc);
  }

  /** forServer talks to a server URL with no credentials (the embedded source). */
  static forServer(server: string): SourceTransport {
    const kc = new KubeConfig();
    // client-node refuses plain http unless TLS verification is switched off.
    kc.loadFromOptions({
      clusters: [{ name: 'source', server, skipTLSVerify: server.startsWith('http:') }],
      users: [{ name: 'anonymous' }],
      contexts: [{ name: 'source', cluster: 'source', user: 'anonymous' }],
      currentContext: 'source',
    });
    return new SourceTransport(kc);
  }

  /** send makes one request; network failures are thrown with their cause in the message (callers name the source). */
  async send(req: TransportRequest): Promise<TransportResponse> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      const res = await this.#fetch(this.server + req.path, {
        method: req.method,
        signal: req.signal === undefined ? timeout : AbortSignal.any([req.signal, timeout]),
        ...(req.contentType === undefined ? {} : { contentType: req.contentType }),
        ...(req.body === undefined ? {} : { body: req.body }),
      });
      return { status: res.status, body: req.peek === undefined ? await res.text() : await peekedText(res, req.peek) };
    } catch (err) {
      throw withCause(err);
    }
  }

  /**
   * watch opens a watch on a collection path and resolves once the response headers arrived (or
   * it failed); callbacks run until end() has been called once. The stream is kept until the
   * server ends it, the connection breaks or abort() is called.
   */
  async watch(path: string, query: Readonly<Record<string, string>>, callbacks: WatchCallbacks): Promise<WatchStream> {
    const url = new URL(this.server + path);
    url.searchParams.set('watch', 'true');
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const controller = new AbortController();
    let ended = false;
    const end = (failure: TransportFailure | undefined): void => {
      if (ended) return;
      ended = true;
      callbacks.end(failure);
    };
    const failed = (err: unknown): void => end(controller.signal.aborted ? undefined : failureOf(err));
    const stream: WatchStream = {
      abort: () => {
        controller.abort();
        end(undefined);
      },
    };
    let res: Response;
    try {
      res = await this.#fetch(url.toString(), { method: 'GET', signal: controller.signal });
    } catch (err) {
      failed(err);
      return stream;
    }
    if (res.status !== 200 || res.body === null) {
      await res.body?.cancel().catch(() => undefined);
      end({ message: `HTTP ${res.status} ${res.statusText || STATUS_CODES[res.status] || ''}`.trimEnd(), status: res.status, aborted: false });
      return stream;
    }
    readEvents(res.body, (type, object) => {
      if (!ended) callbacks.event(type, object);
    }).then(() => end(undefined), failed);
    return stream;
  }

  /** #fetch sends one request with the kubeconfig's credentials: headers (token, basic auth) and a dispatcher for TLS or a proxy. */
  async #fetch(url: string, opts: { method: TransportRequest['method']; signal: AbortSignal; contentType?: string; body?: string }): Promise<Response> {
    const context = new RequestContext(url, HttpMethod[opts.method]);
    await this.#kubeConfig.applySecurityAuthentication(context);
    const headers: HeadersInit = { ...context.getHeaders(), accept: 'application/json' };
    if (opts.contentType !== undefined) headers['content-type'] = opts.contentType;
    return fetch(url, {
      method: opts.method,
      headers,
      dispatcher: this.#dispatchers.use(context.getDispatcher()),
      signal: opts.signal,
      ...(opts.body === undefined ? {} : { body: opts.body }),
    });
  }
}

/** failureOf describes how a watch broke, in our own terms. */
function failureOf(err: unknown): TransportFailure {
  return { message: withCause(err).message, aborted: err instanceof Error && err.name === 'AbortError' };
}

/**
 * withCause puts a fetch failure's cause into its message: undici says only "fetch failed", and
 * the why (connect ECONNREFUSED 127.0.0.1:1, a certificate that does not verify) is its cause.
 */
function withCause(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  if (!(err.cause instanceof Error) || err.message.includes(err.cause.message)) return err;
  return new Error(`${err.message}: ${err.cause.message}`, { cause: err });
}

/**
 * withoutTlsVerify marks the current cluster as not verifying TLS. client-node refuses a plain
 * http server otherwise, although there is no TLS to verify; kubectl accepts such kubeconfigs.
 */
function withoutTlsVerify(kubeConfig: KubeConfig): KubeConfig {
  const current = kubeConfig.getCurrentCluster()?.name;
  const relaxed = new KubeConfig();
  relaxed.loadFromOptions({
    clusters: kubeConfig.clusters.map((c) => (c.name === current ? { ...c, skipTLSVerify: true } : c)),
    users: kubeConfig.users,
    contexts: kubeConfig.contexts,
    currentContext: kubeConfig.getCurrentContext(),
  });
  return relaxed;
}
