// WorkingStatus: conditions keep their transition time unless their status flips, and an
// unchanged status is not written.

import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import { WorkingStatus } from '../../../../src/controllers/clustercachedresources/ccr-status.js';

const THEN = '2025-01-01T00:00:00Z';
const NOW = '2026-02-01T10:00:00Z';

function stored(): Record<string, unknown> {
  return deepFreeze({
    phase: 'Ready',
    identityHash: 'abc',
    resourceCounts: { local: 2, cache: 2 },
    conditions: [
      { type: 'IdentityValid', status: 'True', reason: 'Valid', lastTransitionTime: THEN },
      { type: 'ReplicationStarted', status: 'True', reason: 'Started', lastTransitionTime: THEN },
      { type: 'ResourceValid', status: 'True', reason: 'Valid', lastTransitionTime: THEN },
    ],
  });
}

describe('WorkingStatus', () => {
  it('reads phase and identityHash; an empty status reads undefined and \'\'', () => {
    expect(new WorkingStatus(stored(), NOW).phase).toBe('Ready');
    expect(new WorkingStatus(stored(), NOW).identityHash).toBe('abc');
    expect(new WorkingStatus({}, NOW).phase).toBeUndefined();
    expect(new WorkingStatus({}, NOW).identityHash).toBe('');
  });

  it('changed() is false when nothing was set, and when identical values were set again', () => {
    const status = new WorkingStatus(stored(), NOW);
    expect(status.changed()).toBe(false);
    status.setPhase('Ready');
    status.setIdentityHash('abc');
    status.setCounts({ local: 2, cache: 2 });
    status.setCondition('ResourceValid', true, 'Valid');
    status.setCondition('IdentityValid', true, 'Valid');
    status.setCondition('ReplicationStarted', true, 'Started');
    expect(status.changed()).toBe(false);
    expect(status.value()).toEqual(stored());
  });

  it('lastTransitionTime is kept when a condition\'s status is unchanged (even if its reason changes)', () => {
    const status = new WorkingStatus(stored(), NOW);
    status.setCondition('ResourceValid', true, 'OtherReason', 'a message');
    expect(status.condition('ResourceValid')).toEqual({ type: 'ResourceValid', status: 'True', reason: 'OtherReason', message: 'a message', lastTransitionTime: THEN });
    expect(status.changed()).toBe(true);
  });

  it('lastTransitionTime moves to now when a condition\'s status flips', () => {
    const status = new WorkingStatus(stored(), NOW);
    status.setCondition('ResourceValid', false, 'Deleting', 'going');
    expect(status.condition('ResourceValid')).toEqual({ type: 'ResourceValid', status: 'False', reason: 'Deleting', message: 'going', lastTransitionTime: NOW });
    expect(status.condition('IdentityValid')?.lastTransitionTime).toBe(THEN);
  });

  it('a new condition is stamped now, and conditions stay sorted by type', () => {
    const status = new WorkingStatus({}, NOW);
    status.setCondition('ResourceValid', true, 'Valid');
    status.setCondition('IdentityValid', false, 'Broken');
    expect((status.value()['conditions'] as Array<{ type: string; lastTransitionTime: string }>).map((c) => [c.type, c.lastTransitionTime])).toEqual([
      ['IdentityValid', NOW],
      ['ResourceValid', NOW],
    ]);
    expect(status.changed()).toBe(true);
  });

  it('changed() is true for a new phase, counts or hash, and the stored status is never touched', () => {
    const original = stored();
    for (const change of [
      (s: WorkingStatus) => s.setPhase('Deleting'),
      (s: WorkingStatus) => s.setCounts({ local: 3, cache: 2 }),
      (s: WorkingStatus) => s.setIdentityHash('other'),
    ]) {
      const status = new WorkingStatus(original, NOW);
      change(status);
      expect(status.changed()).toBe(true);
    }
    expect(original).toEqual(stored());
  });
});
