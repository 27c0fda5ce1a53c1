// The REST facade's contract, openapi/openapi.yaml, loaded once per app. It is the single source
// of truth: routes take their URLs and their parameter schemas from it (see route-schemas.ts),
// /openapi.json serves it, and a drift test compares it with the registered routes.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** OpenApiRef is a JSON reference (`$ref: '#/components/...'`). */
export interface OpenApiRef {
  readonly $ref: string;
}

/** OpenApiParameter is one operation parameter, as far as the facade reads it. */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: Readonly<Record<string, unknown>> | OpenApiRef;
}

/** OpenApiOperation is one operation of a path. */
export interface OpenApiOperation {
  readonly operationId?: string;
  readonly parameters?: ReadonlyArray<OpenApiParameter | OpenApiRef>;
  readonly [field: string]: unknown;
}

/** OpenApiPathItem is one path: its operations by method, and parameters shared by them. */
export interface OpenApiPathItem {
  readonly parameters?: ReadonlyArray<OpenApiParameter | OpenApiRef>;
  readonly [method: string]: OpenApiOperation | ReadonlyArray<OpenApiParameter | OpenApiRef> | undefined;
}

/** OpenApiDocument is an OpenAPI 3 document (only the fields the facade reads are typed). */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: Readonly<Record<string, unknown>>;
  readonly paths: Readonly<Record<string, OpenApiPathItem>>;
  readonly components?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/** DEFAULT_OPENAPI_PATH is openapi/openapi.yaml at the project root (from src/ and from dist/ alike). */
export const DEFAULT_OPENAPI_PATH = fileURLToPath(new URL('../../../openapi/openapi.yaml', import.meta.url));

/** loadOpenApiDocument reads and parses the YAML document; a missing or malformed one fails startup. */
export function loadOpenApiDocument(path: string = DEFAULT_OPENAPI_PATH): OpenApiDocument {
  const parsed: unknown = parse(readFileSync(path, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path}: not an OpenAPI document`);
  }
  const doc = parsed as Partial<OpenApiDocument>;
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.') || typeof doc.paths !== 'object' || doc.paths === null) {
    throw new Error(`${path}: not an OpenAPI 3 document (needs "openapi: 3.x" and "paths")`);
  }
  return parsed as OpenApiDocument;
}
