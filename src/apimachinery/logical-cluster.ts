// kcp stamps every object with the logical cluster it lives in. The embedded source does the
// same, kcp sources are read through it, and CachedObjects carry it over from their originals.

/** LOGICAL_CLUSTER_ANNOTATION names the logical cluster an object lives in. */
export const LOGICAL_CLUSTER_ANNOTATION = 'kcp.io/cluster';

/** LOGICAL_CLUSTER_NAME_PATTERN is what a logical cluster name must match. */
export const LOGICAL_CLUSTER_NAME_PATTERN = /^[a-z0-9]([a-z0-9:-]*[a-z0-9])?$/;
