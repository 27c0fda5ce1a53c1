// Namespaces: decoded as v1.Namespace, spec.finalizers validated, created Active, labelled with
// their name; deleting one marks it Terminating and deletes what is in it (namespace-lifecycle.ts).

import { AppError } from '../../errors.js';
import type { StatusCause } from '../../errors.js';
import { invalidCause } from '../../apimachinery/field-causes.js';
import { goDecodeError } from '../../apimachinery/go-json-decode.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import { invalidError, isQualifiedName } from '../../apimachinery/validation.js';
import type { ResourceHooks } from '../resource-hooks.js';
import { NAMESPACE_TYPE } from './builtin-go-types.js';
import type { NamespaceLifecycle } from './namespace-lifecycle.js';

const PROTECTED = new Set(['default', 'kube-system', 'kube-public']);
/** STANDARD_FINALIZERS may be written without a domain prefix (Kubernetes' IsStandardFinalizerName). */
const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** namespaceHooks deletes namespaces through their lifecycle (namespace-lifecycle.ts). */
export function namespaceHooks(lifecycle: NamespaceLifecycle): ResourceHooks {
  return {
    decode: (_info, obj) => goDecodeError(obj, NAMESPACE_TYPE),
    admit(ctx, obj) {
      const name = String(obj.metadata['name'] ?? '');
      const causes = validateNamespaceSpec(obj['spec']);
      if (causes.length > 0) throw invalidError(ctx.info.kind, name, causes, ctx.info.group);
      const labels = (obj.metadata['labels'] ?? {}) as Record<string, string>;
      obj.metadata['labels'] = { ...labels, 'kubernetes.io/metadata.name': name };
      obj['status'] = { phase: 'Active' };
    },
    async beforeDelete(ctx, obj) {
      const name = obj.metadata.name ?? '';
      if (PROTECTED.has(name)) throw new AppError('Forbidden', `namespace "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' });
      if (!ctx.dryRun) await lifecycle.terminate(ctx.store, ctx.cluster, obj);
    },
    async afterMarkedForDeletion(ctx, obj) {
      lifecycle.emptyLater(ctx.store, ctx.cluster, obj.metadata.name ?? '');
    },
  };
}

/** validateNamespaceSpec checks spec.finalizers: qualified names, or one of the standard ones. */
export function validateNamespaceSpec(spec: unknown): StatusCause[] {
  const field = 'spec.finalizers';
  const finalizers = isPlainObject(spec) && Array.isArray(spec['finalizers']) ? spec['finalizers'] : [];
  return finalizers.filter((f): f is string => typeof f === 'string').flatMap((finalizer) => {
    const causes = isQualifiedName(finalizer).map((message) => invalidCause(field, finalizer, message));
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)) {
      causes.push(invalidCause(field, finalizer, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
    return causes;
  });
}
