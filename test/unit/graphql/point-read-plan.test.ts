// PointReadPlans: which document texts get a plan (one query of one `object(...)` leaf field with
// literal arguments, passing validation), and what the plan holds: the answer's key and the
// arguments as execution would coerce them, defaults included.

import { readFileSync } from 'node:fs';
import { buildSchema, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE } from '../../../src/graphql/graphql-plugin.js';
import { PointReadPlans } from '../../../src/graphql/point-read-plan.js';

const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
const plans = (): PointReadPlans => new PointReadPlans({
  objectField: () => schema.getQueryType()?.getFields()['object'],
  accepts: (document) => validate(schema, document, specifiedRules).length === 0,
  maxTokens: 1000,
});
const LOOKUP = 'group: "apps", version: "v1", resource: "deployments", name: "web"';

describe('PointReadPlans', () => {
  it.each([
    ['case 1: one lookup gets a plan keyed by the field name, with the default consistent read', `{ object(${LOOKUP}) }`,
      { responseKey: 'object', args: { group: 'apps', version: 'v1', resource: 'deployments', name: 'web', consistent: true } }],
    ['case 2: an alias is the answer\'s key', `{ d: object(${LOOKUP}, namespace: "team-a", cluster: "root") }`,
      { responseKey: 'd', args: { group: 'apps', version: 'v1', resource: 'deployments', name: 'web', namespace: 'team-a', cluster: 'root', consistent: true } }],
    ['case 3: a named query with literal wait arguments keeps them', `query One { object(${LOOKUP}, consistent: false, minResourceVersion: ["s/c/5"]) }`,
      { responseKey: 'object', args: { group: 'apps', version: 'v1', resource: 'deployments', name: 'web', consistent: false, minResourceVersion: ['s/c/5'] } }],
    ['case 4: variables leave the document to mercurius', `query ($n: String!) { object(group: "apps", version: "v1", resource: "deployments", name: $n) }`, undefined],
    ['case 5: two fields leave it to mercurius', `{ a: object(${LOOKUP}) b: object(${LOOKUP}) }`, undefined],
    ['case 6: another field leaves it to mercurius', '{ schemas { name } }', undefined],
    ['case 7: a directive leaves it to mercurius', `{ object(${LOOKUP}) @include(if: true) }`, undefined],
    ['case 8: a document failing validation (missing name) has no plan', '{ object(group: "apps", version: "v1", resource: "deployments") }', undefined],
    ['case 9: an unknown argument has no plan', `{ object(${LOOKUP}, color: "red") }`, undefined],
    ['case 10: a mutation has no plan', 'mutation { deleteObject(group: "apps", version: "v1", resource: "deployments", name: "web") }', undefined],
    ['case 11: text that does not parse has no plan', '{ object(', undefined],
    ['case 12: a second operation has no plan', `query A { object(${LOOKUP}) } query B { object(${LOOKUP}) }`, undefined],
    ['case 13: a lookup padded past 4,096 characters is left to mercurius', `{ object(${LOOKUP}) }${' '.repeat(4096)}`, undefined],
  ])('%s', (_name, query, expected) => {
    const planned = plans().planOf(query);
    if (expected === undefined) expect(planned).toBeUndefined();
    else expect({ responseKey: planned?.responseKey, args: { ...planned?.args } }).toEqual(expected);
  });

  it('case 14: a document asked again is answered from what was kept, plan or not', () => {
    let checks = 0;
    const counted = new PointReadPlans({
      objectField: () => schema.getQueryType()?.getFields()['object'],
      accepts: () => { checks++; return true; },
      maxTokens: 1000,
    });
    const first = counted.planOf(`{ object(${LOOKUP}) }`);
    expect(counted.planOf(`{ object(${LOOKUP}) }`)).toBe(first);
    expect(counted.planOf('{ schemas { name } }')).toBeUndefined();
    expect(counted.planOf('{ schemas { name } }')).toBeUndefined();
    expect(checks).toBe(1);
  });
});
