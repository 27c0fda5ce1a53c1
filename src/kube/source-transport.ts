// The HTTP layer of one source: a kubeconfig (auth, TLS, proxy) turned into plain requests and
// watch streams. This file and nothing else touches @kubernetes/client-node's KubeConfig and
// Watch, so the rest of cachegate sees only its own types.

import { KubeConfig, Watch } from '@kubernetes/client-node';
import fetch, { Headers } from 'node-fetch';

/** REQUEST_TIMEOUT_MS bounds a non-watch request, so a hung server cannot stall a reflector forever. */
const REQUEST_TIMEOUT_MS = 30_000;

/** TransportRequest is one non-watch request: a path (with query) below the server URL. */
export interface TransportRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
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

  /** send makes one request; network failures are thrown as they come (callers name the source). */
  async send(req: TransportRequest): Promise<TransportResponse> {
    const init = await this.#kubeConfig.applyToFetchOptions({});
    const headers = new Headers(init.headers);
    headers.set('accept', 'application/json');
    if (req.contentType !== undefined) headers.set('content-type', req.contentType);
    const res = await fetch(this.server + req.path, {
      ...init,
      method: req.method,
      headers,
      ...(req.body === undefined ? {} : { body: req.body }),
      ...(req.signal === undefined ? {} : { signal: req.signal }),
      timeout: REQUEST_TIMEOUT_MS,
    });
    return { status: res.status, body: await res.text() };
  }

  /** watch opens a watch on a collection path; callbacks run until end() has been called once. */
  async watch(path: string, query: Readonly<Record<string, string>>, callbacks: WatchCallbacks): Promise<WatchStream> {
    let aborting = false;
    let ended = false;
    const end = (err: unknown): void => {
      if (ended) return;
      ended = true;
      callbacks.end(err ? failureOf(err, aborting) : undefined);
    };
    const onEvent = (type: string, object: unknown): void => {
      if (!ended) callbacks.event(type, object);
    };
    try {
      const controller = await new Watch(this.#kubeConfig).watch(path, query, onEvent, end);
      return {
        abort: () => {
          aborting = true;
          controller.abort();
          end(undefined);
        },
      };
    } catch (err) {
      // Watch throws before its fetch starts (e.g. an agent that cannot be built).
      end(err);
      return { abort: () => undefined };
    }
  }
}

/** failureOf describes a watch failure in our own terms. */
function failureOf(err: unknown, aborting: boolean): TransportFailure {
  const message = err instanceof Error ? err.message : String(err);
  const status = typeof err === 'object' && err !== null ? (err as { statusCode?: unknown }).statusCode : undefined;
  const aborted = aborting || (err instanceof Error && err.name === 'AbortError');
  return typeof status === 'number' ? { message: `HTTP ${status} ${message}`, status, aborted } : { message, aborted };
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
