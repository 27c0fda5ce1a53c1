// Small GraphQL clients for tests: POST /graphql over fetch, and subscriptions through a real
// graphql-ws client (graphql-transport-ws protocol) over the `ws` WebSocket.

import { createClient } from 'graphql-ws';
import type { Client, FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';

/** GraphqlResponse is an HTTP answer of /graphql with its parsed body. */
export interface GraphqlResponse {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  readonly body: any;
}

/** gql POSTs a query to baseUrl/graphql. */
export async function gql(baseUrl: string, query: string, variables?: Record<string, unknown>): Promise<GraphqlResponse> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** wsClient connects a graphql-ws client to baseUrl/graphql (no retries: failures must show). */
export function wsClient(baseUrl: string): Client {
  return createClient({ url: `${baseUrl.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
}

/** Recorded is what a subscription has delivered so far. */
export interface Recorded {
  readonly results: Array<FormattedExecutionResult<Record<string, unknown>, unknown>>;
  /** errors are the subscription's final error (graphql-ws hands over the server's error list). */
  errors?: unknown;
  completed: boolean;
  dispose(): void;
}

/** record subscribes and records every result, the final error and completion. */
export function record(client: Client, query: string): Recorded {
  const recorded: Recorded = {
    results: [],
    completed: false,
    dispose: () => undefined,
  };
  const dispose = client.subscribe({ query }, {
    next: (result) => {
      recorded.results.push(result);
    },
    error: (err) => {
      recorded.errors = err;
    },
    complete: () => {
      recorded.completed = true;
    },
  });
  recorded.dispose = dispose;
  return recorded;
}

/** gaugeValue reads a gauge from the Prometheus text of baseUrl/metrics. */
export async function gaugeValue(baseUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`metric ${name} not found`);
  return Number(line.slice(name.length + 1));
}
