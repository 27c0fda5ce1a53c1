// What the informers report to metrics, as an interface of this module's own: the composition
// root passes in the app's restart counter. Each reflector holds the series of its
// (source, resource) while it runs; reflectors of one resource in several logical clusters share
// that series, and the counter removes it when the last of them lets go.

/** InformerRestartLabels are the labels of a restart series. */
export type InformerRestartLabels = 'source' | 'resource';

/** InformerRestartSeries is one reflector's hold on its restart series. */
export interface InformerRestartSeries {
  /** inc counts one restart; after release it does nothing. */
  inc(): void;
  /** release ends the hold (again: no-op); the last holder of the labels removes the series. */
  release(): void;
}

/** InformerRestarts counts list/watch restarts per (source, resource schema string). */
export interface InformerRestarts {
  /** hold takes a share of the series of labels, for as long as one reflector runs. */
  hold(labels: Readonly<Record<InformerRestartLabels, string>>): InformerRestartSeries;
}
