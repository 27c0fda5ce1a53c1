// The facade's read figures, each measured in the same run as its reference, shared by the
// facade bench (its own embedded server) and the system bench (the measured cachegate):
//   - REST point read by gvr+name vs a trivial route of the same server (/livez);
//   - GraphQL point read vs the REST point read;
//   - a list of 500 objects: server time per list (1 / throughput: one event loop serves all
//     clients) vs JSON.stringify of the same 500 objects in this process.
// All four are interleaved, round by round, and each figure is its median round. The point read
// and its trivial reference swap order every round, so drift on a shared machine (other tenants,
// GC debt left by the list load) does not always fall on the same one of the two. Given the
// server's pid, the server's CPU time per request of both is reported as well.

import { fetchPastShedding } from './bench-http.js';
import { measure } from './load-generator.js';
import type { LoadResult } from './load-generator.js';
import { medianBy } from './stats.js';

/** FacadeTargets are the URLs to load; objectUrl and graphqlQuery read the same object. */
export interface FacadeTargets {
  readonly base: string;
  readonly objectUrl: string;
  readonly graphqlQuery: string;
  /** listUrl answers a list of 500 objects as `{items}`. */
  readonly listUrl: string;
  /** serverPid is the server's process, when it runs on this machine. */
  readonly serverPid?: number;
}

/** FacadeFigures are the medians. */
export interface FacadeFigures {
  readonly trivial: LoadResult;
  readonly rest: LoadResult;
  readonly graphql: LoadResult;
  readonly list: LoadResult;
  /** listServerMs is the server's time per list, 1000 / list.rps. */
  readonly listServerMs: number;
  readonly stringifyMs: number;
  readonly errors: number;
  /** serverCpuUs is the median server CPU time per request of /livez and of the point read (with serverPid). */
  readonly serverCpuUs?: { readonly trivial: number; readonly rest: number };
}

/** FacadeLoad says how hard and how long to load. */
export interface FacadeLoad {
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
}

/** measureFacade loads the four targets in interleaved rounds and keeps the median of each. */
export async function measureFacade(t: FacadeTargets, load: FacadeLoad): Promise<FacadeFigures> {
  const get = (url: string): Promise<LoadResult> => measure({ url }, load.connections, load.seconds, t.serverPid);
  const runs = { trivial: [] as LoadResult[], rest: [] as LoadResult[], graphql: [] as LoadResult[], list: [] as LoadResult[], stringify: [] as number[] };
  for (let round = 0; round < load.rounds; round++) {
    const pair = [async () => runs.trivial.push(await get(`${t.base}/livez`)), async () => runs.rest.push(await get(t.objectUrl))];
    for (const run of round % 2 === 0 ? pair : pair.reverse()) await run();
    runs.graphql.push(await measure(
      { url: `${t.base}/graphql`, method: 'POST', body: JSON.stringify({ query: t.graphqlQuery }), contentType: 'application/json' }, load.connections, load.seconds));
    runs.list.push(await get(t.listUrl));
    runs.stringify.push(await stringifyLatency(t.listUrl));
  }
  const byRps = (rs: LoadResult[]): LoadResult => medianBy(rs, (r) => r.rps);
  const cpu = (rs: LoadResult[]): number => medianBy(rs, (r) => r.serverCpuUs ?? NaN).serverCpuUs ?? NaN;
  const [trivial, rest, graphql, list] = [byRps(runs.trivial), byRps(runs.rest), byRps(runs.graphql), byRps(runs.list)];
  return {
    trivial, rest, graphql, list,
    listServerMs: 1000 / list.rps,
    stringifyMs: medianBy(runs.stringify, (ms) => ms),
    errors: [runs.trivial, runs.rest, runs.graphql, runs.list].flat().reduce((sum, r) => sum + r.errors, 0),
    ...(t.serverPid === undefined ? {} : { serverCpuUs: { trivial: cpu(runs.trivial), rest: cpu(runs.rest) } }),
  };
}

/** stringifyLatency times JSON.stringify of a copy of the objects listUrl answers, in ms per list. */
async function stringifyLatency(listUrl: string): Promise<number> {
  // Right after a list load the server may still be shedding (503): wait that out.
  const res = await fetchPastShedding(listUrl);
  const text = await res.text();
  const items = res.ok ? (JSON.parse(text) as { items?: unknown[] }).items : undefined;
  if (items?.length !== 500) throw new Error(`${listUrl} answered ${res.status} with ${items?.length ?? 'no'} items, not 500: ${text.slice(0, 500)}`);
  const copy = structuredClone(items);
  const rounds = 200;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) JSON.stringify(copy);
  return (performance.now() - start) / rounds;
}
