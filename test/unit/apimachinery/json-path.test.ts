// The JSONPath subset of printer columns, against one object (pure):
//   case 1: a field path                       case 6: a filter with ==
//   case 2: a missing field finds nothing      case 7: a filter with != and a number
//   case 3: a quoted field with dots           case 8: braces around the path
//   case 4: a negative index     case 9: a path outside the subset finds nothing
//   case 5: a wildcard over a list and a map

import { describe, expect, it } from 'vitest';
import { findAll, parseJsonPath } from '../../../src/apimachinery/json-path.js';

const OBJECT = {
  metadata: { name: 'x', annotations: { 'a.b/c': 'dotted' } },
  spec: { replicas: 3, ports: [{ port: 80, name: 'http' }, { port: 443, name: 'https' }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'False' }], counts: { a: 1, b: 2 } },
};

const CASES: ReadonlyArray<{ readonly name: string; readonly path: string; readonly found: unknown[] }> = [
  { name: 'case 1: a field path', path: '.spec.replicas', found: [3] },
  { name: 'case 2: a missing field finds nothing', path: '.spec.missing.deeper', found: [] },
  { name: 'case 3: a quoted field with dots', path: ".metadata.annotations['a.b/c']", found: ['dotted'] },
  { name: 'case 4: a negative index', path: '.spec.ports[-1].port', found: [443] },
  { name: 'case 5: a wildcard over a list and a map', path: '.status.counts.*', found: [1, 2] },
  { name: 'case 6: a filter with ==', path: '.status.conditions[?(@.type=="Ready")].status', found: ['True'] },
  { name: 'case 7: a filter with != and a number', path: '.spec.ports[?(@.port!=80)].name', found: ['https'] },
  { name: 'case 8: braces around the path', path: '{.spec.ports[*].name}', found: ['http', 'https'] },
  { name: 'case 9: a path outside the subset finds nothing', path: '.spec.ports[0:1]', found: [] },
];

describe('JSONPath of printer columns', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const steps = parseJsonPath(c.path);
      expect(steps === undefined ? [] : findAll(steps, OBJECT)).toEqual(c.found);
    });
  }
});
