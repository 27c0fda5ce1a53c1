// The write service as one principal may use it: every write names its logical cluster,
// and the principal must hold the write verb for it, or the write is Forbidden before anything
// reaches the source. REST writes and GraphQL mutations both go through this.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { DeleteOptions, NamedTarget, PatchType, WriteOptions, WriteService, WriteTarget } from '../write/write-service.js';
import { requireAccess } from './authorizer.js';
import type { Principal } from './principal.js';

/** scopeWriteService gives the write service guarded for a principal (unchanged when principal is null). */
export function scopeWriteService(write: WriteService, principal: Principal | null): WriteService {
  if (principal === null) return write;
  const check = (target: WriteTarget): void => requireAccess(principal, 'write', target.cluster);
  return {
    create: (target: WriteTarget, obj: KubeObject, opts?: WriteOptions) => guarded(check, target, () => write.create(target, obj, opts)),
    update: (target: NamedTarget, obj: KubeObject, opts?: WriteOptions) => guarded(check, target, () => write.update(target, obj, opts)),
    patch: (target: NamedTarget, patch: unknown, type: PatchType, opts?: WriteOptions) => guarded(check, target, () => write.patch(target, patch, type, opts)),
    updateStatus: (target: NamedTarget, obj: KubeObject, opts?: WriteOptions) => guarded(check, target, () => write.updateStatus(target, obj, opts)),
    patchStatus: (target: NamedTarget, patch: unknown, type: PatchType, opts?: WriteOptions) => guarded(check, target, () => write.patchStatus(target, patch, type, opts)),
    delete: (target: NamedTarget, opts?: DeleteOptions) => guarded(check, target, () => write.delete(target, opts)),
    deleteAllOf: (target: WriteTarget, labelSelector: string | undefined, opts?: WriteOptions) => guarded(check, target, () => write.deleteAllOf(target, labelSelector, opts)),
  };
}

// Checked inside the promise, so a denial rejects like any other write failure.
async function guarded<T>(check: (target: WriteTarget) => void, target: WriteTarget, run: () => Promise<T>): Promise<T> {
  check(target);
  return run();
}

