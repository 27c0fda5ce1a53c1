// Preloaded into the system bench's measured cachegate (node --expose-gc --import this
// dist/main.js): on the IPC message 'memory' it runs a full GC and answers its heap, so heap per
// object is not GC timing noise. It is plain JavaScript so the compiled build runs without tsx.
// RSS is read by the orchestrator from /proc as well.

import process from 'node:process';

process.on('message', (message) => {
  if (message !== 'memory') return;
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.send?.({ heapUsed, rss });
});
