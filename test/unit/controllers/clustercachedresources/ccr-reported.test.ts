import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { reportedCcr, SOURCE_REACHABLE } from '../../../../src/controllers/clustercachedresources/ccr-reported.js';

const ccr = (status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: 'things' }, ...(status ? { status } : {}),
});
const DOWN = { error: 'connect ECONNREFUSED 127.0.0.1:1', since: '2026-11-29T10:00:00.000Z' };

describe('reportedCcr', () => {
  it('case 1: a reachable source leaves the CCR as stored (the same object)', () => {
    const stored = ccr({ phase: 'Ready', resourceCounts: { local: 3, cache: 3 } });
    expect(reportedCcr(stored, { error: undefined, since: undefined })).toBe(stored);
  });

  it('case 2: an unreachable source adds SourceReachable=False with the error and since when, and drops the local count', () => {
    const got = reportedCcr(ccr({ phase: 'Ready', resourceCounts: { local: 3, cache: 3 }, conditions: [{ type: 'Ready', status: 'True' }] }), DOWN);
    expect(got.status).toEqual({
      phase: 'Ready',
      resourceCounts: { cache: 3 },
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: SOURCE_REACHABLE, status: 'False', reason: 'SourceUnreachable', message: DOWN.error, lastTransitionTime: DOWN.since },
      ],
    });
  });

  it('case 3: a stored SourceReachable condition is replaced, not repeated', () => {
    const got = reportedCcr(ccr({ conditions: [{ type: SOURCE_REACHABLE, status: 'True' }] }), DOWN);
    expect((got.status as { conditions: unknown[] }).conditions).toHaveLength(1);
  });

  it('case 4: a CCR without status gets one that says only what is known', () => {
    const got = reportedCcr(ccr(), DOWN);
    expect(got.status).toEqual({ conditions: [expect.objectContaining({ type: SOURCE_REACHABLE, status: 'False' })] });
  });

  it('case 5: the stored CCR is not changed', () => {
    const stored = ccr({ resourceCounts: { local: 1, cache: 1 } });
    reportedCcr(stored, DOWN);
    expect(stored.status).toEqual({ resourceCounts: { local: 1, cache: 1 } });
  });

  it('case 6: the copies counted now by a running replication controller replace a stored cache count that predates them', () => {
    const got = reportedCcr(ccr({ phase: 'Ready', resourceCounts: { local: 5, cache: 0 } }), DOWN, 5);
    expect((got.status as { resourceCounts: unknown }).resourceCounts).toEqual({ cache: 5 });
  });

  it('case 7: a CCR whose status was never written still reports the copies counted now', () => {
    const got = reportedCcr(ccr(), DOWN, 2);
    expect((got.status as { resourceCounts: unknown }).resourceCounts).toEqual({ cache: 2 });
  });

  it('case 8: a reachable source keeps the stored counts even when a live count is known', () => {
    const stored = ccr({ resourceCounts: { local: 4, cache: 3 } });
    expect(reportedCcr(stored, { error: undefined, since: undefined }, 4)).toBe(stored);
  });
});
