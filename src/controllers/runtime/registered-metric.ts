// Metric lookup that lets several queues and controllers share one app registry: the first
// caller registers a metric, later callers get the same instance instead of a duplicate error.

import type { Metric, Registry } from 'prom-client';

/** registeredMetric returns the metric already in registry under name, or the one create registers. */
export function registeredMetric<M extends Metric>(
  registry: Registry,
  name: string,
  kind: abstract new (...args: never[]) => Metric,
  create: () => M,
): M {
  const existing = registry.getSingleMetric(name);
  if (existing === undefined) return create();
  if (!(existing instanceof kind)) throw new Error(`metric ${name} is already registered with another type`);
  // Same name and type means it was made by the same create, so the label set matches too.
  return existing as M;
}
