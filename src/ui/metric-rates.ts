// Turns successive /metrics scrapes into the points of the overview's charts. Counters and
// histograms only grow, so each point is the difference between two scrapes: requests per
// second, and the mean and 99th percentile of the replication lag of the changes replicated in
// between (a gap when none were). A counter that went down means the server restarted: that
// interval has no point.

import type { Sample } from './prometheus-text.js';

/** LAG_METRIC is the replication lag histogram (seconds), labelled by shard. */
export const LAG_METRIC = 'cachegate_replication_lag_seconds';
/** REQUEST_METRIC is the HTTP request duration histogram; its _count counts requests. */
export const REQUEST_METRIC = 'http_request_duration_seconds';
/** SCRAPED_METRICS are the sample names the charts read. */
export const SCRAPED_METRICS: ReadonlySet<string> = new Set([`${LAG_METRIC}_bucket`, `${LAG_METRIC}_sum`, `${LAG_METRIC}_count`, `${REQUEST_METRIC}_count`]);

/** RatePoint is one point of the charts, at a time in seconds since the epoch (uPlot's unit). */
export interface RatePoint {
  readonly time: number;
  readonly lagMeanMs: number | null;
  readonly lagP99Ms: number | null;
  readonly requestsPerSecond: number | null;
  readonly errorsPerSecond: number | null;
}

interface Totals {
  readonly lagSum: number;
  readonly lagCount: number;
  /** lagBuckets: cumulative counts by upper bound, as the histogram has them. */
  readonly lagBuckets: ReadonlyMap<number, number>;
  readonly lagCountByShard: ReadonlyMap<string, number>;
  readonly requests: number;
  readonly errors: number;
}

/** MetricRates remembers the previous scrape and when each shard last replicated a change. */
export class MetricRates {
  private previous: { readonly totals: Totals; readonly time: number } | undefined;
  /** lastChangeByShard is when a scrape first showed a change replicated from each shard. */
  readonly lastChangeByShard = new Map<string, Date>();

  /** observe adds a scrape; the first gives no point (there is nothing to compare it with). */
  observe(samples: readonly Sample[], at: Date): RatePoint | undefined {
    const totals = totalsOf(samples);
    const time = at.getTime() / 1000;
    const previous = this.previous;
    this.previous = { totals, time };
    for (const [shard, count] of totals.lagCountByShard) {
      if (count > (previous?.totals.lagCountByShard.get(shard) ?? 0)) this.lastChangeByShard.set(shard, at);
    }
    if (previous === undefined || time <= previous.time) return undefined;
    const seconds = time - previous.time;
    const replicated = totals.lagCount - previous.totals.lagCount;
    const requests = totals.requests - previous.totals.requests;
    const errors = totals.errors - previous.totals.errors;
    const lagValid = replicated > 0;
    return {
      time,
      lagMeanMs: lagValid ? ((totals.lagSum - previous.totals.lagSum) / replicated) * 1000 : null,
      lagP99Ms: lagValid ? quantileMs(0.99, totals.lagBuckets, previous.totals.lagBuckets, replicated) : null,
      requestsPerSecond: requests >= 0 ? requests / seconds : null,
      errorsPerSecond: errors >= 0 && requests >= 0 ? errors / seconds : null,
    };
  }
}

function totalsOf(samples: readonly Sample[]): Totals {
  let lagSum = 0;
  let lagCount = 0;
  let requests = 0;
  let errors = 0;
  const lagBuckets = new Map<number, number>();
  const lagCountByShard = new Map<string, number>();
  for (const sample of samples) {
    if (sample.name === `${LAG_METRIC}_sum`) lagSum += sample.value;
    else if (sample.name === `${LAG_METRIC}_count`) {
      lagCount += sample.value;
      const shard = sample.labels['shard'] ?? '';
      lagCountByShard.set(shard, (lagCountByShard.get(shard) ?? 0) + sample.value);
    } else if (sample.name === `${LAG_METRIC}_bucket`) {
      const le = sample.labels['le'] === '+Inf' ? Infinity : Number(sample.labels['le']);
      if (!Number.isNaN(le)) lagBuckets.set(le, (lagBuckets.get(le) ?? 0) + sample.value);
    } else if (sample.name === `${REQUEST_METRIC}_count`) {
      requests += sample.value;
      if (Number(sample.labels['status_code']) >= 400) errors += sample.value;
    }
  }
  return { lagSum, lagCount, lagBuckets, lagCountByShard, requests, errors };
}

/**
 * quantileMs estimates a quantile of the observations between two scrapes from the histogram's
 * buckets, interpolating linearly inside the bucket it falls in (as Prometheus'
 * histogram_quantile does); in the +Inf bucket it is the largest finite bound.
 */
function quantileMs(q: number, now: ReadonlyMap<number, number>, before: ReadonlyMap<number, number>, total: number): number | null {
  const target = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bound of [...now.keys()].sort((a, b) => a - b)) {
    const count = (now.get(bound) ?? 0) - (before.get(bound) ?? 0);
    if (count >= target) {
      if (bound === Infinity) return lowerBound * 1000;
      const share = count === lowerCount ? 1 : (target - lowerCount) / (count - lowerCount);
      return (lowerBound + (bound - lowerBound) * share) * 1000;
    }
    lowerBound = bound;
    lowerCount = count;
  }
  return null;
}
