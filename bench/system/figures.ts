// The system bench's figures: what each phase measured, turned into rows with their reference,
// ratio and target. The targets are the project's fixed goals, never relaxed here.

import type { FacadeFigures } from '../lib/facade-figures.js';
import type { LoadResult } from '../lib/load-generator.js';
import type { ObjectShape } from '../lib/bench-objects.js';
import type { DurablePhaseResult } from './durable-phase.js';
import { durableFigures } from './durable-figures.js';
import { count, fmt, measuredStalls, ms } from './figure-format.js';
import type { Figure } from './figure-format.js';
import { memoryFigures } from './memory-figures.js';
import type { MemoryPhaseResult } from './memory-phase.js';
import type { Memory } from './processes.js';
import type { LagResult, SyncResult } from './replication.js';

/** PhaseResult is everything measured at one object count. */
export interface PhaseResult {
  readonly n: number;
  readonly shape: ObjectShape;
  readonly avgJsonBytes: number;
  readonly seedMs: number;
  readonly sync: SyncResult;
  readonly memoryBefore: Memory;
  readonly memoryAfter: Memory;
  /** cold is the first writes right after the sync, at 500/s, before any steady-rate run. */
  readonly cold: LagResult;
  readonly lags: readonly LagResult[];
  /** pointRead reads random objects of the n by gvr+name. */
  readonly pointRead: LoadResult;
  readonly facade?: FacadeFigures;
}

export type { Figure } from './figure-format.js';

const GiB = 1024 ** 3;

/** Measured is everything one run of the system bench measured. */
export interface Measured {
  readonly phases: readonly PhaseResult[];
  /** memoryOnly: the memory-only phases, one per object shape (their memory rows carry the memory targets at headlineN). */
  readonly memoryOnly: readonly MemoryPhaseResult[];
  readonly durable: readonly DurablePhaseResult[];
  readonly headlineN: number;
}

/**
 * figuresOf builds every row from the phases: facade, sync, lag, memory (the full phases', then
 * the memory-only phases', which carry the targets), point reads (memory backend), then each durable backend's rows, then scale
 * (the last full phase).
 */
export function figuresOf({ phases, memoryOnly, durable, headlineN }: Measured): Figure[] {
  const figures: Figure[] = [];
  for (const p of phases) if (p.facade) figures.push(...facadeFigures(p.facade, p.n));
  for (const p of phases) figures.push(syncFigure(p, p.n === headlineN));
  for (const p of phases) figures.push(...lagFigures(p));
  for (const p of phases) figures.push(...phaseMemoryFigures(p));
  for (const m of memoryOnly) figures.push(...memoryOnlyFigures(m, m.n === headlineN));
  for (const p of phases) figures.push(pointReadFigure(p));
  for (const d of durable) figures.push(...durableFigures(d));
  const scale = phases[phases.length - 1];
  if (scale) figures.push(...scaleFigures(scale));
  return figures;
}

// The server's own CPU per request (from /proc) of the two routes the point-read goal compares:
// it leaves out the load generator, which shares the machine. Shown for context, without a target.
function serverCpuFigure(cpu: NonNullable<FacadeFigures['serverCpuUs']>): Figure {
  const us = (v: number): string => `${v.toFixed(1)} µs`;
  return {
    id: 'facade.rest_point_read_cpu', name: 'server CPU time per request: REST point read (ratio: /livez ÷ point read, the throughput ratio it implies)', value: cpu.rest, unit: 'µs', text: us(cpu.rest),
    reference: { name: 'trivial route /livez', value: cpu.trivial, text: us(cpu.trivial) },
    ratio: cpu.trivial / cpu.rest,
  };
}

function facadeFigures(f: FacadeFigures, n: number): Figure[] {
  const rps = (r: LoadResult): string => `${fmt(r.rps)} req/s (p50 ${ms(r.p50)}, p99 ${ms(r.p99)})`;
  const restRatio = f.rest.rps / f.trivial.rps;
  const graphqlRatio = f.graphql.rps / f.rest.rps;
  const listRatio = f.listServerMs / f.stringifyMs;
  return [
    {
      id: 'facade.rest_point_read', name: `REST point read by gvr+name (${count(n)} objects)`, value: f.rest.rps, unit: 'req/s', text: rps(f.rest),
      reference: { name: 'trivial route /livez', value: f.trivial.rps, text: `${fmt(f.trivial.rps)} req/s` },
      ratio: restRatio, target: { text: '≥ 0.9x', met: restRatio >= 0.9 },
    },
    ...(f.serverCpuUs === undefined ? [] : [serverCpuFigure(f.serverCpuUs)]),
    {
      id: 'facade.list_500', name: 'list of 500 objects: server time per list', value: f.listServerMs, unit: 'ms', text: `${ms(f.listServerMs)} (${fmt(f.list.rps)} lists/s)`,
      reference: { name: 'JSON.stringify of the same 500', value: f.stringifyMs, text: ms(f.stringifyMs) },
      ratio: listRatio, target: { text: '≤ 2x', met: listRatio <= 2 },
    },
    {
      id: 'facade.graphql_point_read', name: 'GraphQL point read', value: f.graphql.rps, unit: 'req/s', text: rps(f.graphql),
      reference: { name: 'REST point read', value: f.rest.rps, text: `${fmt(f.rest.rps)} req/s` },
      ratio: graphqlRatio, target: { text: '≥ 0.5x', met: graphqlRatio >= 0.5 },
    },
    {
      id: 'facade.errors', name: 'non-2xx answers across the facade runs (503 = shed: event loop stalled > 1 s)', value: f.errors, unit: '',
      text: `${fmt(f.errors)} (median rounds: /livez ${f.trivial.errors}, REST ${f.rest.errors}, GraphQL ${f.graphql.errors}, list ${fmt(f.list.errors)})`,
      target: { text: '0', met: f.errors === 0 },
    },
  ];
}

function syncFigure(p: PhaseResult, headline: boolean): Figure {
  const done = p.sync.ms !== undefined;
  const text = done
    ? `${fmt(p.sync.perSecond)} objects/s (${((p.sync.ms ?? 0) / 1000).toFixed(1)} s; meanwhile slowest API answer ${ms(p.sync.slowestPollMs)} `
      + `(the bench's own event loop stalled up to ${ms(p.sync.driverStallMs)}), ${p.sync.shed} of ${p.sync.polls} polls shed with 503; ${gcShare(p.sync)})`
    : `timed out with ${fmt(p.sync.copies)} of ${fmt(p.n)} copies`;
  return {
    id: `sync.${p.n}`, name: `initial sync, ${count(p.n)} ${p.shape} objects: CCR created → all copies present`, value: p.sync.perSecond, unit: 'objects/s', text,
    ...(headline ? { target: { text: '≥ 5,000/s', met: done && p.sync.perSecond >= 5000 } } : {}),
  };
}

function lagFigures(p: PhaseResult): Figure[] {
  const row = (id: string, name: string, l: LagResult, withTarget: boolean): Figure => ({
    id, name, value: l.p99, unit: 'ms',
    text: `p50 ${ms(l.p50)} / p99 ${ms(l.p99)} / max ${ms(l.max)} (${fmt(l.achievedRate)} writes/s; the source's own watch p99 ${ms(l.sourceP99)}; ${measuredStalls(l)}`
      + `${l.missing > 0 ? `; ${fmt(l.missing)} of ${fmt(l.writes)} not arrived 5 s after the last write` : ''})`,
    ...(withTarget ? { target: { text: 'p99 ≤ 50 ms', met: l.missing === 0 && l.p99 <= 50 } } : {}),
  });
  return [
    row(`lag.${p.n}.cold`, `replication lag, ${count(p.n)} objects, first 2 s after the sync at 500 writes/s`, p.cold, false),
    ...p.lags.map((l) => row(`lag.${p.n}.${l.rate}`, `replication lag, ${count(p.n)} objects, steady ${fmt(l.rate)} writes/s`, l, l.rate === 2000)),
  ];
}

function memoryOnlyFigures(m: MemoryPhaseResult, headline: boolean): Figure[] {
  const synced = m.sync.ms === undefined ? `the sync timed out at ${fmt(m.sync.copies)} copies` : `synced at ${fmt(m.sync.perSecond)} objects/s`;
  return memoryFigures({
    id: `memory.${m.n}.${m.shape}`, n: m.n, avgJsonBytes: m.avgJsonBytes, before: m.memoryBefore, after: m.memoryAfter, withTargets: headline,
    ...(m.rest === undefined ? {} : { rest: m.rest }),
    rssName: `RSS per replicated object, ${count(m.n)} ${m.shape} objects, memory-only phase (embedded source off; ${synced})`,
    heapName: `heap per replicated object after GC, ${count(m.n)} ${m.shape} objects, memory-only phase`,
  });
}

// The full phases' memory, without targets: the memory-only phases carry them, with the reading at
// rest the full phases cannot take (their lag runs follow the sync).
function phaseMemoryFigures(p: PhaseResult): Figure[] {
  return memoryFigures({
    id: `memory.${p.n}`, n: p.n, avgJsonBytes: p.avgJsonBytes, before: p.memoryBefore, after: p.memoryAfter, withTargets: false,
    rssName: `RSS per replicated object, ${count(p.n)} objects (embedded source off)`,
    heapName: `heap per replicated object after GC, ${count(p.n)} objects`,
  });
}

/**
 * SCALE_TARGETS are the scale step's targets by object count: the default run at 1M (RSS, and the
 * slowest answer during the sync), and the opt-in step at 5M (SCALE_N=5000000: RSS, and the
 * sync's throughput in objects/s).
 */
export const SCALE_TARGETS: ReadonlyMap<number, { readonly rssGiB: number; readonly minObjectsPerSecond?: number }> = new Map([
  [1_000_000, { rssGiB: 4 }],
  [5_000_000, { rssGiB: 6, minObjectsPerSecond: 10_000 }],
]);

function scaleFigures(p: PhaseResult): Figure[] {
  const target = SCALE_TARGETS.get(p.n);
  const note = target ? '' : ` (run at ${count(p.n)}: the scale targets are set at ${[...SCALE_TARGETS.keys()].map(count).join(' and ')})`;
  const synced = target !== undefined && p.sync.ms !== undefined;
  const minRate = target?.minObjectsPerSecond;
  const syncTarget = minRate !== undefined
    ? { text: `≥ ${fmt(minRate)} objects/s`, met: synced && p.sync.perSecond >= minRate }
    : { text: 'slowest ≤ 200 ms, none shed', met: synced && p.sync.slowestPollMs <= 200 && p.sync.shed === 0 };
  const rssGiB = target?.rssGiB ?? 4;
  return [
    {
      id: 'scale.rss', name: `scale: RSS of cachegate holding ${count(p.n)} ${p.shape} objects${note}`, value: p.memoryAfter.rss, unit: 'B',
      text: `${(p.memoryAfter.rss / GiB).toFixed(2)} GiB (heap ${(p.memoryAfter.heapUsed / GiB).toFixed(2)} GiB)`,
      target: { text: `≤ ${rssGiB} GiB`, met: target !== undefined && p.memoryAfter.rss <= rssGiB * GiB },
    },
    {
      id: 'scale.sync_seconds', name: `scale: initial sync of ${count(p.n)}, slowest API answer meanwhile${note}`, value: (p.sync.ms ?? NaN) / 1000, unit: 's', text: syncFigure(p, false).text,
      target: syncTarget,
    },
  ];
}

function pointReadFigure(p: PhaseResult): Figure {
  const r = p.pointRead;
  return {
    id: `point_read.${p.n}`, name: `point read of random objects among ${count(p.n)}, p99`, value: r.p99, unit: 'ms',
    text: `p99 ${ms(r.p99)} (p50 ${ms(r.p50)}, ${fmt(r.rps)} req/s, 32 connections, median of runs by req/s; server CPU ${r.serverCpuUs?.toFixed(1) ?? '?'} µs per request)`,
  };
}

/** gcShare says how much of a sync the main thread spent paused for GC, and its CPU time then. */
function gcShare(sync: PhaseResult['sync']): string {
  const wall = sync.ms ?? 0;
  const share = wall > 0 ? (100 * sync.gc.pausedMs) / wall : 0;
  return `GC paused the event loop ${share.toFixed(0)}% of the time, longest pause ${ms(sync.gc.longestMs)}; process CPU ${(sync.gc.cpuMs / 1000).toFixed(1)} s`;
}
