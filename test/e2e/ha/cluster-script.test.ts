// `npm run cluster`, the one command that starts etcd and cachegate replicas on this machine for
// people to try: it reports every replica ready with exactly one leading, and Ctrl-C (SIGINT)
// stops all of them.
//   case 1: two replicas come up, one leads, and SIGINT ends the script and every replica

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';

const DEADLINE_MS = 120_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run cluster', () => {
  it('case 1: two replicas come up, one leads, and SIGINT ends the script and every replica', async () => {
    const child = spawn('npm', ['run', '--silent', 'cluster'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: { ...process.env, REPLICAS: '2', LEASE_SECONDS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await eventually(() => expect(output).toContain('cluster ready'), DEADLINE_MS);
      const replicas = [...output.matchAll(/replica (http:\/\/\S+) \(pid (\d+)\): (\w+)/g)];
      expect(replicas).toHaveLength(2);
      expect(replicas.filter((r) => r[3] === 'leads')).toHaveLength(1);
      for (const replica of replicas) expect((await fetch(`${replica[1]}/readyz`)).status).toBe(200);
      const etcd = /etcd: (http:\/\/\S+)/.exec(output)?.[1];
      expect(etcd).toBeDefined();
      // Ctrl-C in a terminal signals the whole foreground group: npm ends by the signal itself.
      process.kill(-(child.pid ?? 0), 'SIGINT');
      await exited;
      await eventually(async () => {
        for (const replica of replicas) expect(alive(Number(replica[2]))).toBe(false);
        expect(await fetch(`${etcd}/health`).then(() => 'answered', () => 'gone')).toBe('gone');
      }, DEADLINE_MS);
    } finally {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 2 * DEADLINE_MS);
});
