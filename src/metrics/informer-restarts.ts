// The informer restart counter. A series lives while some informer holds its labels: informers of
// one resource in several logical clusters share a series, and the last one to stop removes it,
// so resources that stop being replicated leave no series behind.

import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import { INFORMER_RESTARTS_METRIC } from './metric-names.js';

/** InformerRestartLabels are the labels of the restart counter. */
export type InformerRestartLabels = 'source' | 'resource';

/** HeldRestartSeries is one informer's hold on its restart series. */
export interface HeldRestartSeries {
  /** inc counts one restart; after release it does nothing. */
  inc(): void;
  /** release ends the hold (again: no-op); the last holder of the labels removes the series. */
  release(): void;
}

/** InformerRestartsCounter is the restart counter with a count of holders per label set. */
export class InformerRestartsCounter extends Counter<InformerRestartLabels> {
  readonly #holders = new Map<string, number>();

  /** hold takes a share of the series of labels, for as long as one informer runs. */
  hold(labels: Readonly<Record<InformerRestartLabels, string>>): HeldRestartSeries {
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

/** createInformerRestarts registers the restart counter in registry (a second time throws, as prom-client does). */
export function createInformerRestarts(registry: Registry): InformerRestartsCounter {
  return new InformerRestartsCounter({
    name: INFORMER_RESTARTS_METRIC,
    help: 'Informer restarts (re-list or re-watch after an error or an expired resourceVersion), by source and resource schema.',
    labelNames: ['source', 'resource'] as const,
    registers: [registry],
  });
}
