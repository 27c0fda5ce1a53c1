// What every reconcile step of one CCR shares, and the step vocabulary: a step either lets the
// chain go on, or stops it (after a metadata/spec write, whose event brings the CCR back).

import type { Logger } from 'pino';
import type { WorkingStatus } from './ccr-status.js';
import type { CcrView } from './ccr-view.js';
import type { CcrClient, CopyPurger, ResolveResource } from './ccr-deps.js';
import type { ChildRegistry } from './child-registry.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';

/** StepResult: continue the chain, or stop it here. */
export type StepResult = 'continue' | 'stop';

/** ReconcileContext is one reconcile of one CCR. */
export interface ReconcileContext {
  readonly key: string;
  readonly shard: string;
  readonly ccr: CcrView;
  readonly status: WorkingStatus;
  readonly client: CcrClient;
  readonly resolve: ResolveResource;
  readonly children: ChildRegistry;
  readonly purger: CopyPurger;
  /** others lists the CCRs of the same logical cluster (for the duplicate rule). */
  readonly others: () => KubeObject[];
  readonly onCountsChanged: () => void;
  readonly log: Logger;
  /** requeueAfterMs asks for another pass later (e.g. while a child syncs). */
  requeueAfterMs?: number;
}

/** Step is one reconcile step. */
export type Step = (ctx: ReconcileContext) => Promise<StepResult>;
