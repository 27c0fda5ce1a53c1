// The metrics of the event streams the facades serve, and of GraphQL operations. A stream's gauge
// also counts the events written to its streams; the GraphQL one also counts the operations run
// and the errors returned, and is handed to the GraphQL plugin in both roles (its gauge and its
// counters). Everything stays in this app's registry.

import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import {
  GRAPHQL_ERRORS_METRIC, GRAPHQL_OPERATIONS_METRIC, SSE_CLIENTS_METRIC, SSE_EVENTS_METRIC, SUBSCRIPTIONS_GAUGE,
  SUBSCRIPTION_EVENTS_METRIC,
} from './metric-names.js';

/** OpenStreamsGauge counts open streams (inc when one opens, dec when it ends) and, optionally, the events delivered. */
export interface OpenStreamsGauge {
  inc(): void;
  dec(): void;
  /** delivered counts one event written to a client; a bare gauge (as tests pass) has no such counter. */
  delivered?(): void;
}

/** GRAPHQL_OPERATION_TYPES are the values of the operations counter's type label. */
export const GRAPHQL_OPERATION_TYPES = ['query', 'mutation', 'subscription'] as const;

/** GraphqlOperationType is the type of a GraphQL operation. */
export type GraphqlOperationType = (typeof GRAPHQL_OPERATION_TYPES)[number];

/** GraphqlCounters are what the GraphQL facade counts besides its open subscriptions. */
export interface GraphqlCounters {
  /** operation counts one operation that passed validation and ran. */
  operation(type: GraphqlOperationType): void;
  /** error counts one error returned to a client; code is its extensions.code, from the facade's closed set. */
  error(code: string): void;
  /** delivered counts one subscription event written to its client. */
  delivered(): void;
}

/** StreamsGauge is the gauge of one kind of open stream, with the counter of the events written to them. */
export class StreamsGauge extends Gauge implements OpenStreamsGauge {
  readonly #events: Counter;

  constructor(gauge: { readonly name: string; readonly help: string }, events: Counter, registry: Registry) {
    super({ ...gauge, registers: [registry] });
    this.#events = events;
  }

  delivered(): void {
    this.#events.inc();
  }
}

/** SubscriptionsGauge is the gauge of open GraphQL subscriptions, carrying the GraphQL facade's counters. */
export class SubscriptionsGauge extends StreamsGauge implements GraphqlCounters {
  readonly #operations: Counter<'type'>;
  readonly #errors: Counter<'code'>;

  constructor(registry: Registry) {
    super(
      { name: SUBSCRIPTIONS_GAUGE, help: 'Open GraphQL subscriptions (cachedObjectEvents).' },
      new Counter({ name: SUBSCRIPTION_EVENTS_METRIC, help: 'Events written to GraphQL subscriptions (one per data message sent).', registers: [registry] }),
      registry,
    );
    this.#operations = new Counter({
      name: GRAPHQL_OPERATIONS_METRIC,
      help: 'GraphQL operations that passed validation and ran, by type (query, mutation, subscription), over HTTP and WebSocket.',
      labelNames: ['type'] as const,
      registers: [registry],
    });
    for (const type of GRAPHQL_OPERATION_TYPES) this.#operations.inc({ type }, 0);
    this.#errors = new Counter({
      name: GRAPHQL_ERRORS_METRIC,
      help: 'GraphQL errors returned to clients, one per error in a response or a subscription error message, by extensions.code (codes outside the documented set count as OTHER).',
      labelNames: ['code'] as const,
      registers: [registry],
    });
  }

  operation(type: GraphqlOperationType): void {
    this.#operations.inc({ type });
  }

  error(code: string): void {
    this.#errors.inc({ code });
  }
}

/** createStreamMetrics registers the streams' metrics of one app. */
export function createStreamMetrics(registry: Registry): { readonly sseClients: StreamsGauge; readonly graphqlSubscriptions: SubscriptionsGauge } {
  const sseEvents = new Counter({ name: SSE_EVENTS_METRIC, help: 'Events written to Server-Sent Events streams of the REST facade (keep-alive comments not included).', registers: [registry] });
  return {
    sseClients: new StreamsGauge({ name: SSE_CLIENTS_METRIC, help: 'Open Server-Sent Events streams of the REST facade (/v1/cachedobjects?watch=true).' }, sseEvents, registry),
    graphqlSubscriptions: new SubscriptionsGauge(registry),
  };
}
