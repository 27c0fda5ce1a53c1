// Shedding load when the event loop stalls: requests get 503 ServiceUnavailable (a Status) with
// Retry-After instead of queueing behind the stall. Probes and /metrics are always answered, so
// an orchestrator sees the truth (readiness may report the stall) rather than timeouts.
// under-pressure judges the mean delay of its last sample, which a start-up stall (loading the
// state, compiling the GraphQL schema while the plugins load) fills: nothing is shed until two
// samples after the app is ready, or the first requests of a process that has just started serving
// would be refused.

import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { readyStatusReply } from '../apimachinery/status.js';

/** LoadSheddingOptions: maxEventLoopDelayMs 0 turns shedding off. */
export interface LoadSheddingOptions {
  readonly maxEventLoopDelayMs: number;
  readonly retryAfterSeconds: number;
  /** sampleIntervalMs is how often the event-loop delay is sampled; keep it above 10 ms, the histogram's resolution. */
  readonly sampleIntervalMs?: number;
}

const ALWAYS_ANSWERED = new Set(['/livez', '/readyz', '/healthz', '/metrics']);

/** registerLoadShedding installs @fastify/under-pressure with a Status-shaped 503. */
export async function registerLoadShedding(app: FastifyInstance, opts: LoadSheddingOptions): Promise<void> {
  if (opts.maxEventLoopDelayMs <= 0) return;
  const sampleIntervalMs = opts.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
  let sheddingFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    sheddingFrom = performance.now() + 2 * sampleIntervalMs;
  });
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    retryAfter: opts.retryAfterSeconds,
    sampleInterval: sampleIntervalMs,
    pressureHandler: shedUnlessProbe(opts.retryAfterSeconds, () => performance.now() >= sheddingFrom),
  });
}

/** DEFAULT_SAMPLE_INTERVAL_MS is under-pressure's own default. */
const DEFAULT_SAMPLE_INTERVAL_MS = 1000;

type PressureHandler = (req: FastifyRequest, reply: FastifyReply) => void;

/**
 * shedUnlessProbe lets probes through (nullish → handled normally), and everything while shedding
 * has not begun, and answers the rest with a
 * 503 Status with Retry-After. under-pressure sends a returned non-null value as the reply, as its
 * README says (sending it here would let the request go on through the hooks, since the reply is
 * not yet sent when the handler returns); its typings only allow void, hence the cast.
 */
function shedUnlessProbe(retryAfterSeconds: number, shedding: () => boolean): PressureHandler {
  const handler = (req: FastifyRequest, reply: FastifyReply): object | undefined => {
    if (!shedding() || ALWAYS_ANSWERED.has(req.url.split('?')[0] ?? '')) return undefined;
    const error = new AppError('ServiceUnavailable', 'the server is overloaded (event loop delay too high); retry later', { retryAfterSeconds });
    return readyStatusReply(reply, error);
  };
  return handler as PressureHandler;
}
