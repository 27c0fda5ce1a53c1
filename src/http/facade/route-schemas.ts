// Turning the OpenAPI document's operations into fastify routes: the URL (with `{x}` written
// `:x`) and JSON schemas for `params` and `querystring` built from the operation's parameters,
// so fastify validates requests against exactly what is documented.

import type { OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiRef } from './openapi-document.js';

/** JsonSchema is a JSON schema object as fastify's validator takes it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** DocumentedRoute is one operation as fastify registers it. */
export interface DocumentedRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** url is relative to the prefix it was asked for. */
  readonly url: string;
  readonly schema: { readonly params?: JsonSchema; readonly querystring?: JsonSchema };
}

// Keywords that mean the same in OpenAPI parameter schemas and in fastify's JSON Schema
// validator; anything else (description, example, format, ...) is documentation only.
const VALIDATION_KEYWORDS = ['type', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'default'] as const;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * documentedRoute finds the operation with this operationId and returns its method, URL (with
 * prefix removed) and parameter schemas. An operation that is missing, or outside the prefix,
 * throws: the service does not start with a route its contract does not describe.
 */
export function documentedRoute(doc: OpenApiDocument, operationId: string, prefix = ''): DocumentedRoute {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (operation?.operationId !== operationId) continue;
      if (!path.startsWith(prefix)) throw new Error(`operation ${operationId} (${path}) is not under ${prefix}`);
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolve<OpenApiParameter>(doc, p));
      return {
        method: method.toUpperCase() as DocumentedRoute['method'],
        url: path.slice(prefix.length).replace(/\{([^}]+)\}/g, ':$1'),
        schema: {
          ...schemaFor(doc, parameters, 'path', 'params'),
          ...schemaFor(doc, parameters, 'query', 'querystring'),
        },
      };
    }
  }
  throw new Error(`the OpenAPI document has no operation ${operationId}`);
}

function schemaFor(
  doc: OpenApiDocument, parameters: readonly OpenApiParameter[], location: 'path' | 'query', key: 'params' | 'querystring',
): Partial<Record<'params' | 'querystring', JsonSchema>> {
  const mine = parameters.filter((p) => p.in === location);
  if (mine.length === 0) return {};
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of mine) {
    const source = parameter.schema === undefined ? {} : resolve<Record<string, unknown>>(doc, parameter.schema);
    const schema: Record<string, unknown> = {};
    for (const keyword of VALIDATION_KEYWORDS) {
      if (source[keyword] !== undefined) schema[keyword] = source[keyword];
    }
    properties[parameter.name] = schema;
  }
  const required = mine.filter((p) => p.required === true || p.in === 'path').map((p) => p.name);
  // Unknown query parameters are ignored, never refused.
  return { [key]: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: true } };
}

// Follows local references (`#/components/...`) until a value that is not a reference.
function resolve<T>(doc: OpenApiDocument, value: T | OpenApiRef): T {
  let current: unknown = value;
  for (let hops = 0; isRef(current); hops++) {
    if (hops > 16) throw new Error(`reference loop at ${current.$ref}`);
    current = pointer(doc, current.$ref);
  }
  return current as T;
}

function isRef(value: unknown): value is OpenApiRef {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

function pointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(token in node)) throw new Error(`unresolved reference ${ref}`);
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
