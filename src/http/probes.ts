// Liveness and readiness, Kubernetes style: /livez answers while the process runs; /readyz runs
// every named check and, with ?verbose, lists each one as `[+]name ok` (with the check's note in
// parentheses, if it gives one) or `[-]name failed: why`.

import type { FastifyInstance } from 'fastify';

/** Checker fails by throwing (or rejecting) with the reason; a passing one may return a note. */
export type Checker = () => void | string | Promise<void | string>;

/** ProbeOptions name the readiness checks. */
export interface ProbeOptions {
  readonly readiness: Readonly<Record<string, Checker>>;
}

/** probesPlugin registers /livez, /readyz and /healthz (an alias of /readyz). */
export async function probesPlugin(app: FastifyInstance, opts: ProbeOptions): Promise<void> {
  app.get('/livez', async (_req, reply) => reply.type('text/plain').send('ok'));
  for (const path of ['/readyz', '/healthz']) {
    app.get(path, async (req, reply) => {
      const results = await runChecks(opts.readiness);
      const healthy = results.every((r) => r.ok);
      const verbose = Object.prototype.hasOwnProperty.call(req.query ?? {}, 'verbose');
      const lines = results.map((r) => (r.ok ? `[+]${r.name} ok${r.note ? ` (${r.note})` : ''}` : `[-]${r.name} failed: ${r.reason}`));
      const body = verbose ? `${lines.join('\n')}\n${path.slice(1)} check ${healthy ? 'passed' : 'failed'}\n` : healthy ? 'ok' : `${lines.filter((l) => l.startsWith('[-]')).join('\n')}\n`;
      return reply.code(healthy ? 200 : 503).type('text/plain').send(body);
    });
  }
}

async function runChecks(checks: Readonly<Record<string, Checker>>): Promise<Array<{ name: string; ok: boolean; reason?: string; note?: string }>> {
  return Promise.all(Object.entries(checks).map(async ([name, check]) => {
    try {
      const note = await check();
      return typeof note === 'string' ? { name, ok: true, note } : { name, ok: true };
    } catch (err) {
      return { name, ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
  }));
}
