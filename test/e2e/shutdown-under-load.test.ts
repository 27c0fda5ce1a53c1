// SIGTERM on the real process (`npm start`) under a steady load of keep-alive and
// new-connection requests: every request gets a complete response (200, or 503 with a kube
// Status once the server is closing) or a refused connection once the listener is closed, never
// a reset connection or a hang-up, and the process exits 0.
//   case 1: the order readiness 503 → stop accepting → finish what was accepted → exit 0 holds
//           for clients that reuse connections and for clients that open one per request.

import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually } from '../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../helpers/process.js';

const KEEP_ALIVE_CLIENTS = 4;
const NEW_CONNECTION_CLIENTS = 4;

/** Outcome is one request's end: a status with its whole body, or the error's code. */
type Outcome = { readonly status: number; readonly body: string; readonly connection: string | undefined } | { readonly error: string };

function get(url: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.complete ? { status: res.statusCode ?? 0, body, connection: res.headers.connection } : { error: 'incomplete body' }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

/** client sends GETs one after another until its connection is refused or stop() says so. */
async function client(url: string, agent: Agent, stop: () => boolean, out: Outcome[]): Promise<void> {
  while (!stop()) {
    const outcome = await get(url, agent);
    out.push(outcome);
    if ('error' in outcome && outcome.error === 'ECONNREFUSED') return;
  }
}

/** isAcceptable: a 200, a 503 ServiceUnavailable Status, or a refused connection. */
function isAcceptable(outcome: Outcome): boolean {
  if ('error' in outcome) return outcome.error === 'ECONNREFUSED';
  if (outcome.status === 200) return true;
  if (outcome.status !== 503) return false;
  const status = JSON.parse(outcome.body) as Record<string, unknown>;
  return status['kind'] === 'Status' && status['reason'] === 'ServiceUnavailable' && status['code'] === 503;
}

describe('SIGTERM under steady load', () => {
  it('case 1: no request is reset or hung up: each gets 200, a 503 Status or a refused connection; exit 0', async () => {
    const port = await freePort();
    const proc = startProcess(['--port', String(port)]);
    const base = `http://127.0.0.1:${port}`;
    const agents: Agent[] = [];
    try {
      await waitReady(proc, base);
      const url = `${base}/clusters/root/api/v1/namespaces`;
      let exited = false;
      const outcomes: Outcome[] = [];
      const clients: Promise<void>[] = [];
      for (let i = 0; i < KEEP_ALIVE_CLIENTS + NEW_CONNECTION_CLIENTS; i++) {
        const agent = new Agent({ keepAlive: i < KEEP_ALIVE_CLIENTS, maxSockets: 1 });
        agents.push(agent);
        clients.push(client(url, agent, () => exited, outcomes));
      }
      await eventually(() => expect(outcomes.length).toBeGreaterThan(100));

      process.kill(await eventually(() => proc.serverPid()), 'SIGTERM');
      const code = await proc.exited;
      exited = true;
      await Promise.all(clients);

      expect(code).toBe(0);
      const unacceptable = outcomes.filter((o) => !isAcceptable(o));
      expect(unacceptable.map((o) => ('error' in o ? o.error : `${o.status} ${o.body.slice(0, 200)}`))).toEqual([]);
      expect(outcomes.some((o) => 'status' in o && o.status === 200)).toBe(true);
    } finally {
      for (const agent of agents) agent.destroy();
      proc.killAll();
      await proc.exited;
    }
  }, 5 * DEADLINE_MS);
});
