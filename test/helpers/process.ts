// Starting cachegate as a real process, the way a user does (`npm start -- ...`).

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEADLINE_MS } from './kube-http.js';

export { freePort } from './free-port.js';

/** Started is a spawned process with its collected output and exit. */
export interface Started {
  readonly child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** exited resolves with the exit code (or the signal name). */
  readonly exited: Promise<number | string>;
  /** killAll ends the whole process group at once (test clean-up). */
  killAll(): void;
  /** serverPid is the pid of the node process serving (from its log line), which gets the signals in production. */
  serverPid(): number;
  /** serverNode is the Node.js version the serving process runs on (from the same log line). */
  serverNode(): string;
}

/** ServingLine is the log line a process writes once it serves. */
interface ServingLine {
  readonly pid: number;
  readonly node: string;
  readonly address: string;
}

function servingLineOf(stdout: string): ServingLine | undefined {
  for (const line of stdout.split('\n')) {
    if (line.includes('"cachegate is serving"')) return JSON.parse(line) as ServingLine;
  }
  return undefined;
}

function servingLine(stdout: string): ServingLine {
  const line = servingLineOf(stdout);
  if (line === undefined) throw new Error('the server has not logged that it is serving');
  return line;
}

/**
 * startProcess runs `npm start -- <args>` in the project root. Each process gets its own fresh
 * data directory (CACHEGATE_DATA_DIR) unless env names one, so processes never share state by
 * accident; a test of restarts passes the same directory twice.
 */
export function startProcess(args: readonly string[], env: Record<string, string> = {}): Started {
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-test-'));
  const child = spawn('npm', ['start', '--silent', '--', ...args], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, LOG_LEVEL: 'info', CACHEGATE_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so kill() can reach npm, the shell and the server together.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    killAll: () => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    },
    serverPid: () => servingLine(stdout).pid,
    serverNode: () => servingLine(stdout).node,
  };
}

/**
 * waitReady polls /readyz until it answers 200 and proc has logged that it serves on base's port,
 * so a stranger on that port can never pass for proc; it fails at once, with proc's output, when
 * proc exits first. `npm start` compiles on the fly, so a loaded machine gets twice the usual deadline.
 */
export async function waitReady(proc: Started, base: string, timeoutMs = 2 * DEADLINE_MS): Promise<void> {
  let exit: number | string | undefined;
  void proc.exited.then((code) => (exit = code));
  await pollReadyz(base, timeoutMs, () => {
    if (exit !== undefined) throw new Error(`the process for ${base} exited (${exit}) before it was ready: ${proc.output().stderr.trim()}`);
    return servesOn(proc, base);
  });
}

/** waitReadyz polls /readyz until it answers 200, for a process started elsewhere (bench, scripts) that logs at warn. */
export function waitReadyz(base: string, timeoutMs = 2 * DEADLINE_MS): Promise<void> {
  return pollReadyz(base, timeoutMs, () => true);
}

/** pollReadyz asks /readyz every 50 ms once mayAsk allows it (which may throw to give up), until it answers 200. */
async function pollReadyz(base: string, timeoutMs: number, mayAsk: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (mayAsk()) {
      try {
        if ((await fetch(`${base}/readyz`)).status === 200) return;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) throw new Error(`${base} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** servesOn says whether proc has logged that it serves on the port of base. */
function servesOn(proc: Started, base: string): boolean {
  const line = servingLineOf(proc.output().stdout);
  return line !== undefined && new URL(line.address).port === new URL(base).port;
}
