// The OpenAPI document is the REST facade's contract: it must be valid OpenAPI 3, every facade
// route must be documented, every documented operation must be served, and the parameters
// fastify validates must be the documented ones. Any drift fails here.

import { validate } from '@readme/openapi-parser';
import Fastify from 'fastify';
import type { RouteOptions } from 'fastify';

type RegisteredRoute = Pick<RouteOptions, 'method' | 'url' | 'schema'>;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facadePlugin } from '../../../src/http/facade/facade-plugin.js';
import { request } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

interface Parameter {
  name: string;
  in: string;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter>; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

// A route is the facade's own (not Swagger UI's asset routes) when it is under /v1 or is one of the documented meta routes.
const isFacadeRoute = (url: string): boolean => url.startsWith('/v1/') || url === '/openapi.json' || url === '/docs';
const toFastifyPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

describe('OpenAPI document and facade routes do not drift', () => {
  let app: TestApp;
  let doc: Document;
  const registered: RegisteredRoute[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    const res = await request('GET', `${app.url}/openapi.json`);
    expect(res.status).toBe(200);
    doc = res.body as Document;
    // The same plugin in a bare fastify, with a root onRoute hook to see every route it registers.
    const bare = Fastify();
    // Copied at once: fastify reuses the options object of a prefixed route for its trailing-slash twin.
    bare.addHook('onRoute', (route) => void registered.push({ method: route.method, url: route.url, schema: route.schema }));
    await bare.register(facadePlugin, { read: app.app.read });
    await bare.ready();
    await bare.close();
  });
  afterAll(async () => app?.stop());

  const documented = (): string[] => Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).filter((method) => HTTP_METHODS.includes(method)).map((method) => `${method.toUpperCase()} ${toFastifyPath(path)}`)).sort();
  const operations = (): Array<{ key: string; operation: Operation }> => Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => HTTP_METHODS.includes(method)).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })));
  const resolveParameter = (p: Parameter): Parameter => (p.$ref ? doc.components.parameters[p.$ref.split('/').at(-1)!]! : p);

  it('case 1: /openapi.json is a valid OpenAPI 3 document (checked by @readme/openapi-parser)', async () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it('case 2: the validator is real: a document with a broken reference is refused', async () => {
    const broken = structuredClone(doc);
    broken.paths['/v1/schemas']!['get']!.responses['200'] = { $ref: '#/components/responses/DoesNotExist' };
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('case 3: every facade route is documented and every documented operation is a facade route', () => {
    const routes = registered
      .flatMap((route) => (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({ method: String(method), url: route.url })))
      .filter((route) => route.method !== 'HEAD' && isFacadeRoute(route.url))
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(routes.length).toBeGreaterThanOrEqual(8);
    expect(routes).toEqual(documented());
  });

  it('case 4: the running app serves every documented operation', () => {
    for (const key of documented()) {
      const [method, url] = key.split(' ') as [string, string];
      expect(app.app.fastify.hasRoute({ method: method as 'GET', url }), key).toBe(true);
    }
  });

  it('case 5: fastify validates exactly the documented path and query parameters of each route', () => {
    for (const { key, operation } of operations()) {
      const [method, path] = key.split(' ') as [string, string];
      const route = registered.find((r) => r.url === toFastifyPath(path) && (Array.isArray(r.method) ? r.method.includes(method as 'GET') : r.method === method));
      expect(route, key).toBeDefined();
      const parameters = (operation.parameters ?? []).map(resolveParameter);
      const schema = (route!.schema ?? {}) as { params?: { properties?: object }; querystring?: { properties?: object } };
      const namesIn = (where: string): string[] => parameters.filter((p) => p.in === where).map((p) => p.name).sort();
      expect(Object.keys(schema.params?.properties ?? {}).sort(), `${key} path`).toEqual(namesIn('path'));
      expect(Object.keys(schema.querystring?.properties ?? {}).sort(), `${key} query`).toEqual(namesIn('query'));
    }
  });

  it('case 6: every /v1 error response is documented as a Kubernetes Status', () => {
    const statusRef = '#/components/schemas/Status';
    for (const { key, operation } of operations().filter((o) => o.key.startsWith('GET /v1'))) {
      const errors = Object.entries(operation.responses).filter(([code]) => Number(code) >= 400);
      expect(errors.length, key).toBeGreaterThan(0);
      for (const [code, response] of errors) {
        const resolved = response.$ref ? doc.components.responses[response.$ref.split('/').at(-1)!]! : response;
        expect(resolved.content?.['application/json']?.schema?.$ref, `${key} ${code}`).toBe(statusRef);
      }
    }
  });
});
