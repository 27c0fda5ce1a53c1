// The names of cachegate's metrics that code outside src/metrics refers to (tests read them);
// every metric itself is created by createMetrics.

/** METRIC_PREFIX starts the name of every cachegate metric. */
export const METRIC_PREFIX = 'cachegate_';

/** SSE_CLIENTS_METRIC is the gauge of open Server-Sent Events streams. */
export const SSE_CLIENTS_METRIC = `${METRIC_PREFIX}sse_clients`;

/** SUBSCRIPTIONS_GAUGE is the gauge of open GraphQL subscriptions. */
export const SUBSCRIPTIONS_GAUGE = `${METRIC_PREFIX}graphql_subscriptions`;

/** INFORMER_RESTARTS_METRIC counts list/watch restarts after errors and expired resourceVersions. */
export const INFORMER_RESTARTS_METRIC = `${METRIC_PREFIX}informer_restarts_total`;

/** LEADER_METRIC is 1 on the replica that leads, 0 on the others. */
export const LEADER_METRIC = `${METRIC_PREFIX}leader`;
