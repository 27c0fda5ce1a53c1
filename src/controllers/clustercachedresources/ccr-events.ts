// The Events a CCR's status write tells of, so `kubectl describe clustercachedresource` shows its
// history: derived from the status before and after one reconcile (level-based: a write that
// changes nothing tells nothing). A phase reached is Normal (Ready, Deleting); a condition turned
// False, or False for a new reason, is a Warning named by its reason (Duplicate, ResourceNotFound,
// IdentityVerificationFailed), except Deleting, which the phase already tells.

import { isPlainObject } from '../../apimachinery/object-meta.js';

/** CcrEvent is one Event to record about a CCR. */
export interface CcrEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** PHASE_EVENTS are the phases worth an Event, with what it says. */
const PHASE_EVENTS: Readonly<Record<string, string>> = {
  Ready: 'every selected object is replicated into the cache',
  Deleting: 'the ClusterCachedResource is being deleted: its copies are being purged',
};

/** transitionEvents lists the Events of going from status before to status after, in order. */
export function transitionEvents(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): CcrEvent[] {
  const events: CcrEvent[] = [];
  const phase = after['phase'];
  if (typeof phase === 'string' && phase !== before['phase'] && PHASE_EVENTS[phase] !== undefined) {
    events.push({ type: 'Normal', reason: phase, message: PHASE_EVENTS[phase] });
  }
  const earlier = conditionsOf(before);
  for (const condition of conditionsOf(after).values()) {
    const was = earlier.get(condition.type);
    if (condition.status !== 'False' || condition.reason === 'Deleting') continue;
    if (was !== undefined && was.status === 'False' && was.reason === condition.reason) continue;
    events.push({ type: 'Warning', reason: condition.reason || condition.type, message: condition.message });
  }
  return events;
}

interface ConditionView {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

function conditionsOf(status: Readonly<Record<string, unknown>>): Map<string, ConditionView> {
  const list = Array.isArray(status['conditions']) ? status['conditions'] : [];
  const byType = new Map<string, ConditionView>();
  for (const entry of list) {
    if (!isPlainObject(entry) || typeof entry['type'] !== 'string') continue;
    byType.set(entry['type'], { type: entry['type'], status: String(entry['status'] ?? ''), reason: String(entry['reason'] ?? ''), message: String(entry['message'] ?? '') });
  }
  return byType;
}
