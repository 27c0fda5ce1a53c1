// Which combinations of a list's or watch's options are 422 Invalid, with which causes.

import { describe, expect, it } from 'vitest';
import { checkListOptions } from '../../../src/apiserver/list-options.js';
import type { ListOptionsQuery } from '../../../src/apiserver/list-options.js';
import { AppError } from '../../../src/errors.js';

function causesOf(q: ListOptionsQuery): Array<{ field?: string; reason: string }> {
  try {
    checkListOptions(q);
    return [];
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.code).toBe('Invalid');
    expect(err.details).toMatchObject({ kind: 'ListOptions', group: 'meta.k8s.io', name: '' });
    return (err.details.causes ?? []).map((c) => ({ ...(c.field === undefined ? {} : { field: c.field }), reason: c.reason }));
  }
}

const FORBIDDEN = 'FieldValueForbidden';
const NOT_SUPPORTED = 'FieldValueNotSupported';

describe('checkListOptions', () => {
  it.each<[string, ListOptionsQuery, Array<{ field: string; reason: string }>]>([
    ['case 1: a plain list', { watch: false }, []],
    ['case 2: a list at a version, not older than it', { watch: false, resourceVersion: '5', resourceVersionMatch: 'NotOlderThan' }, []],
    ['case 3: a list at exactly a version', { watch: false, resourceVersion: '5', resourceVersionMatch: 'Exact' }, []],
    ['case 4: a match without a version', { watch: false, resourceVersionMatch: 'Exact' }, [{ field: 'resourceVersionMatch', reason: FORBIDDEN }]],
    ['case 5: a match with continue', { watch: false, resourceVersion: '5', resourceVersionMatch: 'NotOlderThan', continue: 'x' }, [{ field: 'resourceVersionMatch', reason: FORBIDDEN }]],
    ['case 6: an unknown match', { watch: false, resourceVersion: '5', resourceVersionMatch: 'Bogus' }, [{ field: 'resourceVersionMatch', reason: NOT_SUPPORTED }]],
    ['case 7: exactly version 0', { watch: false, resourceVersion: '0', resourceVersionMatch: 'Exact' }, [{ field: 'resourceVersionMatch', reason: FORBIDDEN }]],
    ['case 8: sendInitialEvents on a list', { watch: false, sendInitialEvents: true }, [{ field: 'sendInitialEvents', reason: FORBIDDEN }]],
    ['case 9: a plain watch', { watch: true, resourceVersion: '5' }, []],
    ['case 10: a watch-list', { watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, []],
    ['case 11: a watch with sendInitialEvents=false and its match', { watch: true, sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }, []],
    ['case 12: sendInitialEvents without a match', { watch: true, sendInitialEvents: true }, [{ field: 'resourceVersionMatch', reason: FORBIDDEN }]],
    ['case 13: a match on a watch without sendInitialEvents', { watch: true, resourceVersionMatch: 'NotOlderThan' }, [{ field: 'resourceVersionMatch', reason: FORBIDDEN }]],
    ['case 14: Exact on a watch-list', { watch: true, sendInitialEvents: true, resourceVersionMatch: 'Exact' }, [
      { field: 'resourceVersionMatch', reason: FORBIDDEN }, { field: 'resourceVersionMatch', reason: NOT_SUPPORTED },
    ]],
  ])('%s', (_name, query, causes) => {
    expect(causesOf(query)).toEqual(causes);
  });

  it('case 15: the message reads as kube-apiserver writes it', () => {
    expect(() => checkListOptions({ watch: false, resourceVersionMatch: 'Exact' })).toThrow(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  });
});
