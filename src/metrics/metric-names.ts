// The names of cachegate's metrics that code outside src/metrics refers to (tests, dashboards and
// alerting rules read them); every metric itself is created by createMetrics.

/** METRIC_PREFIX starts the name of every cachegate metric. */
export const METRIC_PREFIX = 'cachegate_';

/** HTTP_REQUEST_DURATION_METRIC is the histogram of HTTP request durations, by method, route template and status. */
export const HTTP_REQUEST_DURATION_METRIC = 'http_request_duration_seconds';

/** SSE_CLIENTS_METRIC is the gauge of open Server-Sent Events streams. */
export const SSE_CLIENTS_METRIC = `${METRIC_PREFIX}sse_clients`;

/** SSE_EVENTS_METRIC counts the events written to Server-Sent Events streams. */
export const SSE_EVENTS_METRIC = `${METRIC_PREFIX}sse_events_total`;

/** SUBSCRIPTIONS_GAUGE is the gauge of open GraphQL subscriptions. */
export const SUBSCRIPTIONS_GAUGE = `${METRIC_PREFIX}graphql_subscriptions`;

/** SUBSCRIPTION_EVENTS_METRIC counts the events written to GraphQL subscriptions. */
export const SUBSCRIPTION_EVENTS_METRIC = `${METRIC_PREFIX}graphql_subscription_events_total`;

/** GRAPHQL_OPERATIONS_METRIC counts GraphQL operations run, by type (query, mutation, subscription). */
export const GRAPHQL_OPERATIONS_METRIC = `${METRIC_PREFIX}graphql_operations_total`;

/** GRAPHQL_ERRORS_METRIC counts the GraphQL errors returned to clients, by extensions.code. */
export const GRAPHQL_ERRORS_METRIC = `${METRIC_PREFIX}graphql_errors_total`;

/** INFORMER_RESTARTS_METRIC counts list/watch restarts after errors and expired resourceVersions. */
export const INFORMER_RESTARTS_METRIC = `${METRIC_PREFIX}informer_restarts_total`;

/** LEADER_METRIC is 1 on the replica that leads, 0 on the others. */
export const LEADER_METRIC = `${METRIC_PREFIX}leader`;

/** READY_METRIC is 1 while every readiness check of /readyz passes, else 0. */
export const READY_METRIC = `${METRIC_PREFIX}ready`;

/** BUILD_INFO_METRIC is 1, labelled with cachegate's version and the Node.js version. */
export const BUILD_INFO_METRIC = `${METRIC_PREFIX}build_info`;

/** SOURCE_UP_METRIC is 1 per source that serves (its readiness check passes), else 0. */
export const SOURCE_UP_METRIC = `${METRIC_PREFIX}source_up`;

/** SOURCE_LAST_SYNC_METRIC is the Unix time a source was last seen connected. */
export const SOURCE_LAST_SYNC_METRIC = `${METRIC_PREFIX}source_last_sync_timestamp_seconds`;

/** CCR_PHASE_METRIC is 1 for each ClusterCachedResource's current phase, 0 for its other phases. */
export const CCR_PHASE_METRIC = `${METRIC_PREFIX}ccr_phase`;

/** CCR_OBJECTS_METRIC is each ClusterCachedResource's object count in its source (local) and in the cache. */
export const CCR_OBJECTS_METRIC = `${METRIC_PREFIX}ccr_objects`;

/** STORAGE_THREAD_HEAP_USED_METRIC is the V8 heap in use in the storage backend's client thread (etcd). */
export const STORAGE_THREAD_HEAP_USED_METRIC = `${METRIC_PREFIX}storage_thread_heap_used_bytes`;

/** STORAGE_THREAD_HEAP_TOTAL_METRIC is the V8 heap reserved by the storage backend's client thread (etcd). */
export const STORAGE_THREAD_HEAP_TOTAL_METRIC = `${METRIC_PREFIX}storage_thread_heap_total_bytes`;
