// GraphQL fuzz requests: documents built from the real schema's fields with random arguments,
// then sometimes garbled (cut, spliced, doubled), plus huge alias lists, deep selections,
// broken variables and the wrong HTTP shapes (GET with a mutation, form bodies, batches).

import fc from 'fast-check';
import type { FuzzRequest } from './raw-client.js';
import { queryValue, SEED, uriEncode } from './fuzz-values.js';

const str = fc.oneof(fc.constantFrom(SEED.group, SEED.version, SEED.resource, SEED.cluster, SEED.shard, SEED.schema, 'core', 'v1', 'configmaps', 'default', ...SEED.names), queryValue);
const gqlString = str.map((s) => JSON.stringify(s));
const gqlInt = fc.oneof(fc.integer({ min: -5, max: 20_000 }), fc.constantFrom(2147483647, -2147483648)).map(String);
const gqlJson = fc.jsonValue({ maxDepth: 3 }).map(jsonToGraphql);

function jsonToGraphql(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonToGraphql).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).filter(([k]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(k));
    return `{${fields.map(([k, v]) => `${k}: ${jsonToGraphql(v)}`).join(', ')}}`;
  }
  return typeof value === 'number' && !Number.isFinite(value) ? '0' : JSON.stringify(value) ?? 'null';
}

const gvr = fc.tuple(gqlString, gqlString, gqlString).map(([g, v, r]) => `group: ${g}, version: ${v}, resource: ${r}`);
const coFields = 'apiVersion kind metadata { name labels } spec { raw } object shard cluster';
const filter = fc.record({ schema: gqlString, cluster: gqlString, labelSelector: gqlString, name: gqlString }, { requiredKeys: [] })
  .map((f) => `{${Object.entries(f).map(([k, v]) => `${k}: ${v}`).join(', ')}}`);

const operation: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(gvr, gqlString, gqlString).map(([g, name, cluster]) => `{ object(${g}, name: ${name}, cluster: ${cluster}) }`),
  fc.tuple(gqlString, gqlString).map(([name, mrv]) => `{ cachedObject(name: ${name}, minResourceVersion: [${mrv}]) { ${coFields} } }`),
  fc.tuple(filter, gqlInt, gqlString).map(([f, first, after]) => `{ cachedObjects(filter: ${f}, first: ${first}, after: ${after}) { totalCount edges { cursor node { ${coFields} } } pageInfo { hasNextPage endCursor } } }`),
  fc.constant('{ schemas { name group version resource count clusters { cluster count } } clusterCachedResources }'),
  fc.tuple(gvr, gqlString, gqlJson).map(([g, cluster, object]) => `mutation { createObject(${g}, cluster: ${cluster}, object: ${object}, dryRun: true) }`),
  fc.tuple(gvr, gqlString, gqlJson).map(([g, name, patch]) => `mutation { patchObject(${g}, cluster: "root", name: ${name}, patch: ${patch}, patchType: JSON) }`),
  fc.tuple(gvr, gqlString).map(([g, name]) => `mutation { deleteObject(${g}, cluster: "root", name: ${name}, dryRun: true) }`),
  fc.constantFrom('subscription { cachedObjectEvents { type } }', '{ __schema { types { name fields { name } } } }', '{ __typename }', 'query Q($a: Int!) { cachedObjects(first: $a) { totalCount } }'),
  fc.integer({ min: 1, max: 3000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: schemas { name }`).join(' ')} }`),
  fc.integer({ min: 1, max: 400 }).map((n) => `{ schemas { ${'objects { edges { node { metadata { name } } } } '.repeat(Math.min(n, 3))} } ${'{'.repeat(n)} }`),
  fc.integer({ min: 10, max: 5000 }).map((n) => `{ ${'__schema { types { fields { type { ofType '.repeat(n)} name } }`),
);

// Garbling that keeps most of the document, so the parser gets far before it fails.
const garbled = fc.tuple(operation, fc.nat(), fc.constantFrom('', '{', '}', '(', ')', '$', '"', '\\u', '#', '...', '@skip', ':', '\u0000', '\ud800'))
  .map(([doc, at, insert]) => doc.slice(0, at % (doc.length + 1)) + insert + doc.slice(at % (doc.length + 1)));

const document = fc.oneof({ weight: 3, arbitrary: operation }, { weight: 2, arbitrary: garbled }, { weight: 1, arbitrary: fc.string() });

const variables = fc.oneof(fc.constant(undefined), fc.jsonValue(), fc.record({ a: fc.jsonValue() }), fc.constant('{"a":'));

/** graphqlRequest is a POST or GET to /graphql with a random document, variables and body shape. */
export const graphqlRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc.tuple(document, variables, fc.option(fc.string({ maxLength: 8 }))).map(([query, vars, operationName]) => {
    const payload = JSON.stringify({ query, variables: vars, ...(operationName === null ? {} : { operationName }) });
    return { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: Buffer.from(payload) };
  }),
  fc.tuple(document, fc.constantFrom('application/graphql', 'text/plain', 'application/x-www-form-urlencoded', 'application/json')).map(([query, type]) => ({
    method: 'POST', path: '/graphql', headers: { 'content-type': type }, body: Buffer.from(query),
  })),
  fc.array(document, { maxLength: 3 }).map((queries) => ({
    method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(queries.map((query) => ({ query })))),
  })),
  fc.tuple(document, variables).map(([query, vars]) => ({
    method: 'GET',
    path: `/graphql?query=${uriEncode(query)}${vars === undefined ? '' : `&variables=${uriEncode(typeof vars === 'string' ? vars : JSON.stringify(vars))}`}`,
    headers: {},
  })),
  fc.constantFrom<FuzzRequest>(
    { method: 'GET', path: '/graphql', headers: {} },
    { method: 'GET', path: '/graphql?query=%', headers: {} },
    { method: 'GET', path: '/graphiql', headers: {} },
    { method: 'PUT', path: '/graphql', headers: {}, body: Buffer.from('{}') },
    { method: 'GET', path: '/graphql', headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'x', 'sec-websocket-version': '13' } },
  ),
);
