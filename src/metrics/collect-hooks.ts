// Recorders that count in batches (a sync updates some series once per key) hand their counts to
// prom-client only when the metrics are read: a metric's collect runs the hooks registered here,
// on a scrape and on metric.get() alike.

/** CollectHooks are the hooks of one group of metric families, and the collect function that runs them. */
export interface CollectHooks {
  readonly beforeCollect: Set<() => void>;
  readonly collect: () => void;
}

/** collectHooks makes an empty set of hooks; pass collect to each metric that batched recorders feed. */
export function collectHooks(): CollectHooks {
  const beforeCollect = new Set<() => void>();
  return {
    beforeCollect,
    collect: () => {
      for (const flush of beforeCollect) flush();
    },
  };
}
