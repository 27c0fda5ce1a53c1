// The measured cachegate: exactly `npm start` (src/main.ts, same flags and config), plus one
// thing a process cannot be asked from outside: on the IPC message 'memory' it runs a full GC
// (started with --expose-gc) and answers its heap, so heap per object is not GC timing noise.
// RSS is read by the orchestrator from /proc as well.

/** MemoryReply is the answer to 'memory'. */
export interface MemoryReply {
  readonly heapUsed: number;
  readonly rss: number;
}

process.on('message', (message: unknown) => {
  if (message !== 'memory') return;
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.send?.({ heapUsed, rss } satisfies MemoryReply);
});

await import('../../src/main.js');
