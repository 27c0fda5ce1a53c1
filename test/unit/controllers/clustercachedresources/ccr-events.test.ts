// The Events a CCR status write tells of (pure):
//   case 1: nothing changed: none
//   case 2: phase becomes Ready: Normal Ready
//   case 3: phase becomes Deleting (its condition says Deleting too): one Normal Deleting only
//   case 4: ResourceValid turns False for Duplicate: Warning Duplicate with the condition's message
//   case 5: still False for the same reason: none again
//   case 6: False for a new reason (Duplicate → ResourceNotFound): Warning ResourceNotFound
//   case 7: IdentityValid False: Warning IdentityVerificationFailed
//   case 8: a condition back to True, phase Initializing: none

import { describe, expect, it } from 'vitest';
import { transitionEvents } from '../../../../src/controllers/clustercachedresources/ccr-events.js';

const condition = (type: string, status: 'True' | 'False', reason: string, message = `${reason} message`): Record<string, string> =>
  ({ type, status, reason, message, lastTransitionTime: '2026-12-01T00:00:00Z' });

const CASES: ReadonlyArray<{ name: string; before: Record<string, unknown>; after: Record<string, unknown>; events: unknown[] }> = [
  { name: 'case 1: nothing changed', before: { phase: 'Ready' }, after: { phase: 'Ready' }, events: [] },
  {
    name: 'case 2: phase becomes Ready', before: { phase: 'Initializing' }, after: { phase: 'Ready' },
    events: [{ type: 'Normal', reason: 'Ready', message: expect.stringContaining('replicated') }],
  },
  {
    name: 'case 3: phase becomes Deleting', before: { phase: 'Ready' },
    after: { phase: 'Deleting', conditions: [condition('ResourceValid', 'False', 'Deleting')] },
    events: [{ type: 'Normal', reason: 'Deleting', message: expect.stringContaining('being deleted') }],
  },
  {
    name: 'case 4: ResourceValid turns False for Duplicate', before: { conditions: [condition('ResourceValid', 'True', 'Valid')] },
    after: { conditions: [condition('ResourceValid', 'False', 'Duplicate', 'x already replicates it')] },
    events: [{ type: 'Warning', reason: 'Duplicate', message: 'x already replicates it' }],
  },
  {
    name: 'case 5: still False for the same reason', before: { conditions: [condition('ResourceValid', 'False', 'Duplicate')] },
    after: { conditions: [condition('ResourceValid', 'False', 'Duplicate', 'reworded')] }, events: [],
  },
  {
    name: 'case 6: False for a new reason', before: { conditions: [condition('ResourceValid', 'False', 'Duplicate')] },
    after: { conditions: [condition('ResourceValid', 'False', 'ResourceNotFound')] },
    events: [{ type: 'Warning', reason: 'ResourceNotFound', message: 'ResourceNotFound message' }],
  },
  {
    name: 'case 7: IdentityValid False', before: {}, after: { conditions: [condition('IdentityValid', 'False', 'IdentityVerificationFailed')] },
    events: [{ type: 'Warning', reason: 'IdentityVerificationFailed', message: 'IdentityVerificationFailed message' }],
  },
  {
    name: 'case 8: back to True, phase Initializing', before: { phase: 'Ready', conditions: [condition('ResourceValid', 'False', 'Duplicate')] },
    after: { phase: 'Initializing', conditions: [condition('ResourceValid', 'True', 'Valid')] }, events: [],
  },
];

describe('transitionEvents', () => {
  for (const c of CASES) it(c.name, () => expect(transitionEvents(c.before, c.after)).toEqual(c.events));
});
