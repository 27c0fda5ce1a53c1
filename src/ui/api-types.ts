// The shapes of the public API's answers the dashboard reads, as openapi/openapi.yaml documents
// them. Only the fields the dashboard shows are named; the rest stays unknown.

/** ObjectMeta is the part of Kubernetes object metadata the dashboard shows. */
export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly resourceVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** KubeObject is any object: an original, as the cache holds it. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** CachedObject wraps one replicated original (spec.raw). */
export interface CachedObject extends KubeObject {
  readonly spec: { readonly raw: KubeObject };
}

/** CachedObjectList is one page of CachedObjects. */
export interface CachedObjectList {
  readonly metadata: { readonly resourceVersion: string; readonly continue?: string; readonly remainingItemCount?: number };
  readonly items: readonly CachedObject[];
}

/** SchemaSummary is one replicated schema with its counts per logical cluster. */
export interface SchemaSummary {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly count: number;
  readonly clusters: ReadonlyArray<{ readonly shard: string; readonly cluster: string; readonly count: number }>;
}

/** SchemaList is the answer of /v1/schemas. */
export interface SchemaList {
  readonly items: readonly SchemaSummary[];
}

/** Condition is one status condition of a ClusterCachedResource. */
export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

/** ClusterCachedResource says what to replicate; its status says how far it got. */
export interface ClusterCachedResource extends KubeObject {
  readonly spec?: { readonly group?: string; readonly version?: string; readonly resource?: string };
  readonly status?: {
    readonly phase?: string;
    readonly identityHash?: string;
    readonly resourceCounts?: { readonly local?: number; readonly cache?: number };
    readonly conditions?: readonly Condition[];
  };
}

/** ClusterCachedResourceList is the answer of /v1/clustercachedresources. */
export interface ClusterCachedResourceList {
  readonly items: readonly ClusterCachedResource[];
}

/** KubeStatus is the body of every error answer. */
export interface KubeStatus {
  readonly kind: 'Status';
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
}

/** CLUSTER_ANNOTATION and SHARD_ANNOTATION place an object (a CachedObject or a CCR) in its source. */
export const CLUSTER_ANNOTATION = 'kcp.io/cluster';
export const SHARD_ANNOTATION = 'kcp.io/shard';
