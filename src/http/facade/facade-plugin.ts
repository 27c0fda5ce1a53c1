// The REST facade: read and write routes under /v1 over the read model, the OpenAPI
// document they are built from at /openapi.json, and its UI at /docs. Every failure is a
// Kubernetes Status. Open Server-Sent Events streams end when the app closes.

import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../auth/request-principal.js';
import type { OpenStreamsGauge } from '../../metrics/metrics.js';
import { scopeReadModel } from '../../auth/scoped-read-model.js';
import { scopeWriteService } from '../../auth/scoped-write-service.js';
import type { ReadModel } from '../../read/read-model.js';
import type { WriteService } from '../../write/write-service.js';
import { docsPlugin } from './docs-routes.js';
import type { FacadeContext } from './facade-context.js';
import { sendFacadeError } from './facade-errors.js';
import { JsonText } from '../../apimachinery/json-text.js';
import { listRoutes } from './list-routes.js';
import { objectRoutes } from './object-routes.js';
import { writeRoutes } from './write-routes.js';
import { loadOpenApiDocument } from './openapi-document.js';
import { SseStreams } from './sse-streams.js';

/** FacadeOptions configure the REST facade. */
export interface FacadeOptions {
  readonly read: ReadModel;
  /** write performs the write routes; without it they answer 405 MethodNotAllowed. */
  readonly write?: WriteService;
  /** bodyLimit is the largest request body of a write, in bytes (default fastify's 1 MiB). */
  readonly bodyLimit?: number;
  /** sseClients counts the open event streams (the app's `cachegate_sse_clients` gauge). */
  readonly sseClients?: OpenStreamsGauge;
  /** json keeps the JSON text of frozen objects, shared with GraphQL; default a new one. */
  readonly json?: JsonText;
  /** openApiPath overrides the location of openapi/openapi.yaml. */
  readonly openApiPath?: string;
  /** sseKeepAliveMs: interval of `: keep-alive` comments on event streams (default 15 s). */
  readonly sseKeepAliveMs?: number;
  /** sseMaxBufferedBytes: an event-stream client with more waiting is disconnected (default 8 MiB). */
  readonly sseMaxBufferedBytes?: number;
}

const API_PREFIX = '/v1';

/** facadePlugin registers the REST facade's routes, its error handling and its documentation. */
export async function facadePlugin(app: FastifyInstance, opts: FacadeOptions): Promise<void> {
  const document = loadOpenApiDocument(opts.openApiPath);
  const ctx: FacadeContext = {
    read: opts.read,
    ...(opts.write ? { write: opts.write } : {}),
    document,
    json: opts.json ?? new JsonText(),
    streams: new SseStreams(opts.sseClients),
    sseLimits: { keepAliveMs: opts.sseKeepAliveMs ?? 15_000, maxBufferedBytes: opts.sseMaxBufferedBytes ?? 8 * 1024 * 1024 },
    readOf: (req) => scopeReadModel(opts.read, principalOf(req)),
    writeOf: (req) => (opts.write === undefined ? undefined : scopeWriteService(opts.write, principalOf(req))),
  };
  app.addHook('preClose', async () => ctx.streams.closeAll());
  await app.register(async (api) => {
    // A path under /v1 that no route serves is answered by the app's not-found handler (404, or 405).
    api.setErrorHandler(sendFacadeError);
    objectRoutes(api, ctx, API_PREFIX);
    listRoutes(api, ctx, API_PREFIX);
    writeRoutes(api, ctx, API_PREFIX, opts.bodyLimit);
  }, { prefix: API_PREFIX });
  await app.register(docsPlugin, { document });
}
