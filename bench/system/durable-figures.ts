// The durable backends' rows of the system bench: per backend, initial sync, memory per copy
// (the in-memory watch cache is what serves, so the memory backend's targets hold here too),
// point reads as a ratio to a memory-backend cachegate's measured in interleaved rounds,
// replication lag, disk bytes per object, and a graceful restart (time to ready, copies
// rewritten). The targets are the project's fixed goals.

import type { LoadResult } from '../lib/load-generator.js';
import { medianBy } from '../lib/stats.js';
import type { DurablePhaseResult } from './durable-phase.js';
import { count, fmt, measuredStalls, mib, ms } from './figure-format.js';
import type { Figure } from './figure-format.js';
import { memoryFigures } from './memory-figures.js';

const SYNC_TARGET = 5000;
const POINT_READ_RATIO_TARGET = 0.95;
const LAG_P99_TARGET_MS = 50;
const READY_TARGET_S = 10;

/** durableFigures are one durable backend's rows. */
export function durableFigures(d: DurablePhaseResult): Figure[] {
  const on = `cache on ${d.backend}${d.backend === 'local' ? ' (fsync on)' : ' (1 member)'}`;
  const memory = memoryFigures({
    id: `durable.${d.backend}.memory`, n: d.n, avgJsonBytes: d.avgJsonBytes, before: d.memoryBefore, after: d.memoryAfter, withTargets: true,
    ...(d.rest === undefined ? {} : { rest: d.rest }),
    rssName: `RSS per replicated object, ${count(d.n)} objects, ${on} (embedded source off)`,
    heapName: `heap per replicated object after GC, ${count(d.n)} objects, ${on}`,
  });
  return [syncFigure(d, on), ...memory, pointReadFigure(d, on, d.memoryPointRead), lagFigure(d, on), diskFigure(d, on), readyFigure(d, on), rewritesFigure(d, on)];
}

function syncFigure(d: DurablePhaseResult, on: string): Figure {
  const s = d.sync;
  const done = s.ms !== undefined;
  const workers = d.replicationWorkers === undefined ? 'default replication workers' : `${d.replicationWorkers} replication workers`;
  return {
    id: `durable.${d.backend}.sync`, name: `initial sync, ${count(d.n)} widget objects, ${on}: CCR created → all copies present`, value: s.perSecond, unit: 'objects/s',
    text: done
      ? `${fmt(s.perSecond)} objects/s (${((s.ms ?? 0) / 1000).toFixed(1)} s, ${workers}; slowest API answer meanwhile ${ms(s.slowestPollMs)}, ${s.shed} of ${s.polls} polls shed)`
      : `timed out with ${fmt(s.copies)} of ${fmt(d.n)} copies`,
    target: { text: `≥ ${fmt(SYNC_TARGET)}/s`, met: done && s.perSecond >= SYNC_TARGET },
  };
}

function pointReadFigure(d: DurablePhaseResult, on: string, memory: LoadResult): Figure {
  const r = d.pointRead;
  const cpu = (l: LoadResult): string => `server CPU ${l.serverCpuUs?.toFixed(1) ?? '?'} µs per request`;
  const ratio = medianBy(d.pointReadRatios, (x) => x);
  const rounds = d.pointReadRatios.map((x) => `${x.toFixed(2)}x`).join(', ');
  return {
    id: `durable.${d.backend}.point_read`, name: `REST point read of random objects among ${count(d.n)}, ${on}`, value: r.rps, unit: 'req/s',
    text: `${fmt(r.rps)} req/s (p50 ${ms(r.p50)}, p99 ${ms(r.p99)}; ${cpu(r)})`,
    reference: {
      name: `memory backend, ${count(d.n)}, rounds interleaved (ratio: median of the rounds' ratios ${rounds})`, value: memory.rps,
      text: `${fmt(memory.rps)} req/s (${cpu(memory)})`,
    },
    ratio,
    target: { text: `≥ ${POINT_READ_RATIO_TARGET}x`, met: ratio >= POINT_READ_RATIO_TARGET },
  };
}

function lagFigure(d: DurablePhaseResult, on: string): Figure {
  const l = d.lag;
  return {
    id: `durable.${d.backend}.lag.${l.rate}`, name: `replication lag, ${count(d.n)} objects, ${on}, steady ${fmt(l.rate)} writes/s`, value: l.p99, unit: 'ms',
    text: `p50 ${ms(l.p50)} / p99 ${ms(l.p99)} / max ${ms(l.max)} (${fmt(l.achievedRate)} writes/s; the source's own watch p99 ${ms(l.sourceP99)}; ${measuredStalls(l)}; `
      + `the first 2 s after the sync at 500/s: p99 ${ms(d.cold.p99)}${l.missing > 0 ? `; ${fmt(l.missing)} of ${fmt(l.writes)} not arrived 5 s after the last write` : ''})`,
    target: { text: `p99 ≤ ${LAG_P99_TARGET_MS} ms`, met: l.missing === 0 && l.p99 <= LAG_P99_TARGET_MS },
  };
}

function diskFigure(d: DurablePhaseResult, on: string): Figure {
  const perObject = d.disk.bytes / d.n;
  const where = d.backend === 'local' ? 'the data directory' : 'the etcd member\'s data directory';
  const largest = d.disk.largest.map((f) => `${f.path} ${mib(f.bytes)}`).join(', ');
  return {
    id: `durable.${d.backend}.disk_per_object`, name: `disk bytes per object after the sync, ${count(d.n)} objects, ${on}`, value: perObject, unit: 'B',
    text: `${fmt(perObject)} B (du -sb of ${where}: ${mib(d.disk.bytes)}; largest files: ${largest})`,
    reference: { name: 'JSON size of the object', value: d.avgJsonBytes, text: `${fmt(d.avgJsonBytes)} B` },
    ratio: perObject / d.avgJsonBytes,
  };
}

function readyFigure(d: DurablePhaseResult, on: string): Figure {
  const r = d.restart;
  const seconds = r.readyMs / 1000;
  const stopped = `SIGTERM → exit ${(r.stop.ms / 1000).toFixed(1)} s${r.stop.graceful ? ` (code ${r.stop.code})` : ', killed after 10 s'}`;
  const reconciled = r.reconciledMs === undefined ? 'controller not done within 180 s' : `every key reconciled ${(r.reconciledMs / 1000).toFixed(1)} s after spawn`;
  return {
    id: `durable.${d.backend}.restart_ready`, name: `restart over ${count(d.n)} copies, ${on}: spawn → /readyz 200`, value: seconds, unit: 's',
    text: `${seconds.toFixed(1)} s (${r.copiesAtReady === undefined ? 'the count right after the first ready answer was shed with 503' : `${fmt(r.copiesAtReady)} copies served at the first ready answer`}; ${stopped}; ${reconciled})`,
    target: { text: `≤ ${READY_TARGET_S} s`, met: r.stop.graceful && seconds <= READY_TARGET_S },
  };
}

function rewritesFigure(d: DurablePhaseResult, on: string): Figure {
  const r = d.restart;
  const changed = r.rewritten + r.missing + r.added;
  const done = r.reconciledMs !== undefined;
  return {
    id: `durable.${d.backend}.restart_rewrites`, name: `copies rewritten by the restart, ${on}`, value: changed, unit: 'copies',
    text: `${fmt(changed)} of ${fmt(r.copiesBefore)} (${fmt(r.rewritten)} with a new resourceVersion, ${fmt(r.missing)} gone, ${fmt(r.added)} new; `
      + `every copy's resourceVersion from a full list before SIGTERM vs after the restarted controller processed every key; list resourceVersion ${r.listRvBefore} → ${r.listRvAfter}`
      + `${done ? '' : '; the controller had not processed every key within 180 s'})`,
    target: { text: '0', met: done && changed === 0 },
  };
}
