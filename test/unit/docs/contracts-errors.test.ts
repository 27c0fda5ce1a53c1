// docs/contracts.md lists every error reason with its HTTP status and GraphQL code: the table must
// say what src/errors.ts does, row for row.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '../../../src/errors.js';

const DOC = readFileSync(new URL('../../../docs/contracts.md', import.meta.url), 'utf8');

/** documented reads the errors table: each reason of a row with the row's HTTP status and GraphQL code. */
function documented(): Map<string, { httpStatus: number; graphqlCode: string }> {
  const rows = new Map<string, { httpStatus: number; graphqlCode: string }>();
  const section = DOC.slice(DOC.indexOf('## Errors'), DOC.indexOf('## Consistency of reads'));
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const [, reasons, status, codes] = cells;
    if (reasons === undefined || status === undefined || codes === undefined || !/^\d{3}$/.test(status)) continue;
    const codeList = codes.split(',').map((c) => c.trim());
    reasons.split(',').map((r) => r.trim()).forEach((reason, i) => rows.set(reason, { httpStatus: Number(status), graphqlCode: codeList[i] ?? '' }));
  }
  return rows;
}

describe('docs/contracts.md errors table', () => {
  it('case 1: lists exactly the codes of src/errors.ts with their HTTP status and GraphQL code', () => {
    expect(Object.fromEntries(documented())).toEqual(Object.fromEntries(Object.entries(ERROR_TABLE).map(([code, m]) => [code, { httpStatus: m.httpStatus, graphqlCode: m.graphqlCode }])));
  });
});
