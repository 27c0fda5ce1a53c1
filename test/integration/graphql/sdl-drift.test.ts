// SDL ↔ code drift: schema/cachegate.graphql is the one source of truth.
// 1. every field of Query and Subscription has a resolver or a loader;
// 2. every field of every other object type has a resolver, a loader, or is a declared property field;
// 3. every resolver, loader and property field names a field (or scalar) of the SDL, and none is declared twice;
// 4. the schema served at /graphql (introspection, GraphiQL's own query) prints exactly as the SDL file.

import { readFileSync } from 'node:fs';
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, isObjectType, isScalarType, lexicographicSortSchema, printSchema,
} from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreams } from '../../../src/graphql/event-streams.js';
import { SCHEMA_FILE } from '../../../src/graphql/graphql-plugin.js';
import { createLoaders } from '../../../src/graphql/loaders.js';
import { DEFAULT_QUERY_LIMITS } from '../../../src/graphql/query-limits.js';
import { PROPERTY_FIELDS, createResolvers } from '../../../src/graphql/resolvers.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const ROOT_TYPES = ['Query', 'Mutation', 'Subscription'];

describe('GraphQL SDL and resolvers do not drift', () => {
  let app: TestApp;
  let sdl: GraphQLSchema;
  let resolved: Map<string, Set<string>>;
  let scalars: string[];

  beforeAll(async () => {
    app = await startTestApp();
    sdl = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
    const read = app.app.read;
    const resolvers = createResolvers({ read, limits: DEFAULT_QUERY_LIMITS, events: new EventStreams({ read, queueSize: 1 }) });
    const loaders = createLoaders(read);
    resolved = new Map();
    scalars = [];
    for (const [typeName, fields] of [...Object.entries(resolvers), ...Object.entries(loaders)]) {
      if (isScalarType(sdl.getType(typeName))) {
        scalars.push(typeName);
        continue;
      }
      const names = resolved.get(typeName) ?? new Set<string>();
      for (const field of Object.keys(fields ?? {})) {
        expect(names.has(field), `${typeName}.${field} has both a resolver and a loader`).toBe(false);
        names.add(field);
      }
      resolved.set(typeName, names);
    }
  });
  afterAll(async () => app?.stop());

  const objectTypes = (): string[] => Object.values(sdl.getTypeMap())
    .filter((type) => isObjectType(type) && !type.name.startsWith('__'))
    .map((type) => type.name);
  const sdlFields = (typeName: string): string[] => {
    const type = sdl.getType(typeName);
    return isObjectType(type) ? Object.keys(type.getFields()) : [];
  };

  it('case 1: every field of Query and Subscription has a resolver or a loader', () => {
    for (const root of ROOT_TYPES) {
      expect(sdlFields(root).length, `${root} has fields`).toBeGreaterThan(0);
      for (const field of sdlFields(root)) expect(resolved.get(root)?.has(field), `${root}.${field} is resolved`).toBe(true);
      expect(PROPERTY_FIELDS[root], `${root} has no property fields`).toBeUndefined();
    }
  });

  it('case 2: every field of every other object type is resolved or a declared property field', () => {
    for (const typeName of objectTypes().filter((name) => !ROOT_TYPES.includes(name))) {
      for (const field of sdlFields(typeName)) {
        const byResolver = resolved.get(typeName)?.has(field) ?? false;
        const byProperty = PROPERTY_FIELDS[typeName]?.includes(field) ?? false;
        expect(byResolver || byProperty, `${typeName}.${field} has a resolver, a loader or is a property`).toBe(true);
        expect(byResolver && byProperty, `${typeName}.${field} is declared only once`).toBe(false);
      }
    }
  });

  it('case 3: every resolver, loader and property field names a field or scalar of the SDL', () => {
    for (const [typeName, fields] of [...resolved.entries(), ...Object.entries(PROPERTY_FIELDS).map(([t, f]) => [t, new Set(f)] as const)]) {
      expect(objectTypes(), `type ${typeName} is in the SDL`).toContain(typeName);
      for (const field of fields) expect(sdlFields(typeName), `${typeName}.${field} is in the SDL`).toContain(field);
    }
    expect(scalars).toEqual(['JSON']);
  });

  it('case 4: the served schema (GraphiQL introspection) prints exactly as the SDL file', async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery({ schemaDescription: true }) }),
    });
    expect(res.status).toBe(200);
    const body = await res.json() as { data: Parameters<typeof buildClientSchema>[0]; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const served = buildClientSchema(body.data);
    expect(printSchema(lexicographicSortSchema(served))).toBe(printSchema(lexicographicSortSchema(sdl)));
  });
});
