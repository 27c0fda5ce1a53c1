// The contract for people and tools: the OpenAPI document as JSON at /openapi.json and Swagger
// UI at /docs (its assets come from the @fastify/swagger-ui package: nothing from a CDN).

import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import type { OpenApiDocument } from './openapi-document.js';

/** DocsOptions carry the loaded document. */
export interface DocsOptions {
  readonly document: OpenApiDocument;
}

/** docsPlugin serves /openapi.json and the UI at /docs. */
export async function docsPlugin(app: FastifyInstance, opts: DocsOptions): Promise<void> {
  const text = JSON.stringify(opts.document);
  // Static mode: the document is served as written, never generated from the routes.
  await app.register(fastifySwagger, { mode: 'static', specification: { document: opts.document as unknown as OpenAPIV3.Document } });
  // No online validator: its badge would load an image from validator.swagger.io, sending it the
  // document's URL, whenever /docs is opened under a host name other than localhost.
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', validatorUrl: false });
  app.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send(text));
}
