// Per-resource behaviour around the generic verbs, in the spirit of the Kubernetes registry
// strategies: a decoder check refuses objects of the wrong shape, admission may rewrite or refuse
// a write (and validates the kind's fields), and after-hooks keep derived state (registered CRD
// resources, a namespace's contents) in step with what was stored.

import { goDecodeError } from '../apimachinery/go-json-decode.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { goObjectType } from '../apimachinery/object-meta-go-type.js';
import type { ResourceStore } from '../store/store.js';
import type { ResourceInfo } from './resource-info.js';

/** HookContext is what a hook knows about the request it runs for. */
export interface HookContext {
  readonly cluster: string;
  readonly info: ResourceInfo;
  readonly store: ResourceStore;
  readonly dryRun: boolean;
}

/** MutableObject is a write's object while admission may still change it. */
export type MutableObject = Record<string, unknown> & { metadata: Record<string, unknown> };

/** ResourceHooks are the optional steps a resource adds to create, update and delete. */
export interface ResourceHooks {
  /**
   * decode checks an incoming object's JSON types (create, update, status, and a patch's result)
   * before anything else sees it; it returns Go's decode error, or undefined.
   */
  decode?(info: ResourceInfo, obj: Readonly<Record<string, unknown>>): string | undefined;
  /** prepareCluster runs before any write to a cluster (e.g. to create its `default` namespace). */
  prepareCluster?(cluster: string, store: ResourceStore): Promise<void>;
  /** admit may change the object or throw an AppError; old is undefined on create. */
  admit?(ctx: HookContext, obj: MutableObject, old: KubeObject | undefined): Promise<void> | void;
  /** afterWrite runs once a create or update is stored (not for dry runs). */
  afterWrite?(ctx: HookContext, obj: KubeObject): Promise<void>;
  /** beforeDelete may refuse a delete by throwing an AppError. */
  beforeDelete?(ctx: HookContext, obj: KubeObject): Promise<void> | void;
  /** afterDelete runs once an object is gone from the store (not for dry runs). */
  afterDelete?(ctx: HookContext, obj: KubeObject): Promise<void>;
  /** afterMarkedForDeletion runs once a DELETE left the object marked, its finalizers pending (not for dry runs). */
  afterMarkedForDeletion?(ctx: HookContext, obj: KubeObject): Promise<void>;
}

/** hooksKey names a resource in a hooks table: `<group>/<resource>`. */
export function hooksKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

/**
 * composeHooks runs the global hooks first, then those of the request's resource. A resource's own
 * decode replaces the default one, which knows only TypeMeta and ObjectMeta (custom resources).
 */
export function composeHooks(global: ResourceHooks, byResource: ReadonlyMap<string, ResourceHooks>): ResourceHooks {
  const own = (ctx: HookContext): ResourceHooks | undefined => byResource.get(hooksKey(ctx.info.group, ctx.info.resource));
  return {
    decode(info, obj) {
      const decode = byResource.get(hooksKey(info.group, info.resource))?.decode;
      return decode !== undefined ? decode(info, obj) : goDecodeError(obj, goObjectType(info.version, info.kind));
    },
    async prepareCluster(cluster, store) {
      await global.prepareCluster?.(cluster, store);
    },
    async admit(ctx, obj, old) {
      await global.admit?.(ctx, obj, old);
      await own(ctx)?.admit?.(ctx, obj, old);
    },
    async afterWrite(ctx, obj) {
      await global.afterWrite?.(ctx, obj);
      await own(ctx)?.afterWrite?.(ctx, obj);
    },
    async beforeDelete(ctx, obj) {
      await global.beforeDelete?.(ctx, obj);
      await own(ctx)?.beforeDelete?.(ctx, obj);
    },
    async afterDelete(ctx, obj) {
      await global.afterDelete?.(ctx, obj);
      await own(ctx)?.afterDelete?.(ctx, obj);
    },
    async afterMarkedForDeletion(ctx, obj) {
      await global.afterMarkedForDeletion?.(ctx, obj);
      await own(ctx)?.afterMarkedForDeletion?.(ctx, obj);
    },
  };
}
