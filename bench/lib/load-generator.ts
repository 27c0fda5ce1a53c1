// HTTP load for benchmarks: wrk when it is installed (a C client, so the figures are the
// server's), else autocannon (a JavaScript client that competes with the server for the CPU).
// Each target gets a 1 s warm-up first, so every route is measured with the JIT done.

import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** LoadResult is one measured run. */
export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** requests is how many requests were answered in the measured run. */
  readonly requests: number;
  /** serverCpuUs is the server's CPU time (user + system) per request, when its pid was given. */
  readonly serverCpuUs?: number;
}

/** LoadRequest is what to send. */
export interface LoadRequest {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly contentType?: string;
  /**
   * spread: each request's path is pathFormat with its one `%0Nd` replaced by a random integer in
   * [0, count), so a load reads across many objects rather than one hot one. The host is url's.
   */
  readonly spread?: { readonly pathFormat: string; readonly count: number };
}

/** loadGeneratorName says which client measures. */
export function loadGeneratorName(): string {
  return hasWrk() ? 'wrk' : 'autocannon';
}

/**
 * measure warms a target up, then loads it for seconds with connections. Given the server's pid
 * (a local process), it also reports the server's CPU time per request, read from /proc: on a
 * machine the load generator shares, that is steadier than requests/s.
 */
export async function measure(req: LoadRequest, connections: number, seconds: number, serverPid?: number): Promise<LoadResult> {
  if (hasWrk()) {
    runWrk(req, connections, 1);
    const before = serverPid === undefined ? 0 : cpuTicks(serverPid);
    const result = runWrk(req, connections, seconds);
    return serverPid === undefined ? result : { ...result, serverCpuUs: perRequestUs(cpuTicks(serverPid) - before, result.requests) };
  }
  const spread = req.spread;
  const options = {
    url: req.url, connections, method: req.method ?? 'GET', body: req.body, headers: req.contentType ? { 'content-type': req.contentType } : undefined,
    ...(spread ? { requests: [{ setupRequest: (r: autocannon.Request): autocannon.Request => ({ ...r, path: randomPath(spread.pathFormat, spread.count) }) }] } : {}),
  };
  await autocannon({ ...options, duration: 1 });
  const before = serverPid === undefined ? 0 : cpuTicks(serverPid);
  const result = await autocannon({ ...options, duration: seconds });
  const measured = { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors, requests: result.requests.total };
  return serverPid === undefined ? measured : { ...measured, serverCpuUs: perRequestUs(cpuTicks(serverPid) - before, measured.requests) };
}

/**
 * measureTogether loads several targets at once, one wrk each (wrk only: autocannon would share
 * this process's CPU between them), after a warm-up of each; it returns each target's result.
 */
export async function measureTogether(reqs: readonly LoadRequest[], connections: number, seconds: number): Promise<LoadResult[]> {
  if (!hasWrk()) throw new Error('measureTogether needs wrk (scripts/ensure-bench-tools.sh installs it)');
  for (const req of reqs) runWrk(req, connections, 1);
  return Promise.all(reqs.map((req) => new Promise<LoadResult>((resolve, reject) => {
    execFile('wrk', wrkArgs(req, connections, seconds), { encoding: 'utf8' }, (err, out) => (err ? reject(err) : resolve(parseWrk(out))));
  })));
}

function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

function runWrk(req: LoadRequest, connections: number, seconds: number): LoadResult {
  return parseWrk(execFileSync('wrk', wrkArgs(req, connections, seconds), { encoding: 'utf8' }));
}

function wrkArgs(req: LoadRequest, connections: number, seconds: number): string[] {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (req.method === 'POST' || req.spread) args.push('-s', luaScript(req));
  return [...args, req.url];
}

function parseWrk(out: string): LoadResult {
  const number = (pattern: RegExp): number => Number(pattern.exec(out)?.[1] ?? NaN);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50: latencyMs(/^\s+50%\s+([\d.]+\w+)/m.exec(out)?.[1]),
    p99: latencyMs(/^\s+99%\s+([\d.]+\w+)/m.exec(out)?.[1]),
    errors: number(/Non-2xx or 3xx responses:\s+(\d+)/) || 0,
    requests: number(/(\d+) requests in/),
  };
}

function luaScript(req: LoadRequest): string {
  const path = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'request.lua');
  const lines = req.method === 'POST' ? [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(req.body ?? '')}`,
    `wrk.headers["Content-Type"] = ${JSON.stringify(req.contentType ?? 'application/json')}`,
  ] : [];
  // Lua's string.format takes the same %0Nd; JSON string escapes are valid Lua string escapes here.
  if (req.spread) lines.push(`request = function() return wrk.format(nil, string.format(${JSON.stringify(req.spread.pathFormat)}, math.random(0, ${req.spread.count - 1}))) end`);
  writeFileSync(path, lines.join('\n'));
  return path;
}

function randomPath(format: string, count: number): string {
  return format.replace(/%0(\d+)d/, (_, width: string) => String(Math.floor(Math.random() * count)).padStart(Number(width), '0'));
}

function latencyMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

// /proc/<pid>/stat: utime and stime are fields 14 and 15, counted after the `(comm)` field, in
// clock ticks of 1/100 s (USER_HZ on Linux).
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

function perRequestUs(ticks: number, requests: number): number {
  return requests > 0 ? (ticks * 10_000) / requests : NaN;
}
