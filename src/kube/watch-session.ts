// One watch stream from open to end, reduced to what the reflector must do next. The stream's
// end is reported exactly once, however it ends: by the server, by the network, by an event
// that asks for it (an ERROR event), or by our own abort.

import type { SourceTransport, TransportFailure, WatchStream } from './source-transport.js';

/**
 * WatchOutcome: re-watch at once ('closed') or after a backoff pause ('short'); or relist, because
 * the resourceVersion expired ('gone', 410), because the server has not reached it ('too-large',
 * 504 ResourceVersionTooLarge: it restarted and counts again), or because its versions went
 * backwards mid-stream ('rewound').
 */
export type WatchOutcome = 'closed' | 'short' | 'gone' | 'too-large' | 'rewound';

/** RELIST_OUTCOMES are the outcomes after which the reflector must list again. */
export const RELIST_OUTCOMES: ReadonlySet<WatchOutcome> = new Set(['gone', 'too-large', 'rewound']);

/** RELIST_REASONS say in the log why a watch outcome led to a re-list. */
export const RELIST_REASONS: Readonly<Partial<Record<WatchOutcome, string>>> = {
  'gone': 'the watch resourceVersion expired (410); relisting',
  'too-large': 'the source has not reached our resourceVersion (it restarted?); relisting',
  'rewound': 'the source sent a resourceVersion older than one already seen (it restarted?); relisting',
};

/** SHORT_WATCH_MS: a stream that ends this quickly without one event is treated like a refusal, so we do not spin. */
const SHORT_WATCH_MS = 1000;

/** WatchSessionOptions say where to watch and what to do with events. */
export interface WatchSessionOptions {
  readonly transport: SourceTransport;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** apply handles one event; a returned outcome or Error ends the stream with it. */
  apply(type: string, object: unknown): WatchOutcome | Error | undefined;
  /** firstEvent runs when the first event arrives (the connection is healthy). */
  firstEvent(): void;
  /** connected runs when the response headers arrived; false aborts at once (the owner stopped). */
  connected(stream: WatchStream): boolean;
}

/** runWatch opens a watch and resolves when it ends with what to do next; a failure rejects. */
export function runWatch(opts: WatchSessionOptions): Promise<WatchOutcome> {
  return new Promise<WatchOutcome>((resolve, reject) => {
    let settled = false;
    let delivered = false;
    let stream: WatchStream | undefined;
    const startedAt = Date.now();
    const settle = (outcome: WatchOutcome | Error): void => {
      if (settled) return;
      settled = true;
      stream?.abort();
      if (outcome instanceof Error) reject(outcome);
      else if (outcome === 'closed' && !delivered && Date.now() - startedAt < SHORT_WATCH_MS) resolve('short');
      else resolve(outcome);
    };
    const event = (type: string, object: unknown): void => {
      if (settled) return;
      const outcome = opts.apply(type, object);
      if (outcome !== undefined) return settle(outcome);
      if (!delivered) {
        delivered = true;
        opts.firstEvent();
      }
    };
    const end = (failure: TransportFailure | undefined): void => settle(endOutcome(failure));
    opts.transport.watch(opts.path, opts.query, { event, end }).then((opened) => {
      stream = opened;
      if (settled || !opts.connected(opened)) opened.abort();
    }, (err: unknown) => settle(err instanceof Error ? err : new Error(String(err))));
  });
}

/**
 * endOutcome maps how a stream ended: cleanly or by our own abort → re-watch; 410 → relist; 504 →
 * relist too (the transport keeps only a refusal's status, and a watch refused with 504 is kube-apiserver's
 * "too large resource version"; after a gateway's timeout a re-list is merely cautious); else an error.
 */
function endOutcome(failure: TransportFailure | undefined): WatchOutcome | Error {
  if (failure === undefined || failure.aborted) return 'closed';
  if (failure.status === 410) return 'gone';
  if (failure.status === 504) return 'too-large';
  return new Error(`watch failed: ${failure.message}`);
}
