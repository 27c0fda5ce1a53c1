// The metrics of cachegate's informers, registered once per Registry: several reflectors (and
// several SharedInformers) may share one registry, and prom-client throws on a second
// registration of the same name. A series lives while some reflector holds its labels: reflectors
// of one resource in several logical clusters share a series, and the last one to stop removes
// it, so resources that stop being replicated leave no series behind.

import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/** INFORMER_RESTARTS_METRIC counts list/watch restarts after errors and expired resourceVersions. */
export const INFORMER_RESTARTS_METRIC = 'cachegate_informer_restarts_total';

/** InformerRestartLabels are the labels of the restart counter. */
export type InformerRestartLabels = 'source' | 'resource';

/** InformerRestartSeries is one reflector's hold on its restart series. */
export interface InformerRestartSeries {
  /** inc counts one restart; after release it does nothing. */
  inc(): void;
  /** release ends the hold (again: no-op); the last holder of the labels removes the series. */
  release(): void;
}

/** InformerRestartsCounter is the restart counter with a count of holders per label set. */
export class InformerRestartsCounter extends Counter<InformerRestartLabels> {
  readonly #holders = new Map<string, number>();

  /** hold takes a share of the series of labels, for as long as one reflector runs. */
  hold(labels: Readonly<Record<InformerRestartLabels, string>>): InformerRestartSeries {
    const key = JSON.stringify([labels.source, labels.resource]);
    this.#holders.set(key, (this.#holders.get(key) ?? 0) + 1);
    let held = true;
    return {
      inc: () => {
        if (held) this.inc(labels);
      },
      release: () => {
        if (!held) return;
        held = false;
        const left = (this.#holders.get(key) ?? 1) - 1;
        if (left > 0) {
          this.#holders.set(key, left);
          return;
        }
        this.#holders.delete(key);
        this.remove(labels);
      },
    };
  }
}

/** informerRestartsCounter gives the registry's restart counter, creating it on first use. */
export function informerRestartsCounter(registry: Registry): InformerRestartsCounter {
  const existing = registry.getSingleMetric(INFORMER_RESTARTS_METRIC);
  if (existing instanceof InformerRestartsCounter) return existing;
  if (existing !== undefined) throw new Error(`metric ${INFORMER_RESTARTS_METRIC} is already registered by someone else`);
  return new InformerRestartsCounter({
    name: INFORMER_RESTARTS_METRIC,
    help: 'Informer restarts (re-list or re-watch after an error or an expired resourceVersion), by source and resource schema.',
    labelNames: ['source', 'resource'] as const,
    registers: [registry],
  });
}
