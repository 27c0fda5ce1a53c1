// Preloaded into the system bench's measured cachegate (node --expose-gc --import this
// dist/main.js). It exits with the bench (when the IPC channel closes), and it answers two IPC
// questions a process cannot be asked from outside:
//   'memory': runs a full GC and answers the heap (with ArrayBuffers), so heap per object is not GC timing noise
//             (RSS is read by the orchestrator from /proc as well);
//   'gc':     the main thread's GC pauses so far (their sum, and the longest since the last
//             'gc'), and the process's CPU time, so a phase can report GC's share;
//   'reduce': runs the GC V8 runs under memory pressure (full GCs that also shrink the young
//             generation and return pooled pages), so processes compared on the same load start
//             from the same GC state (see point-reads.ts);
//   'loop':   the longest event-loop delay since the last 'loop' (a lag run asks before and after
//             its writes, so its row can say whether the measured process stalled meanwhile).
// It is plain JavaScript so the compiled build runs without tsx.

import process from 'node:process';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';

let pausedMs = 0;
let longestMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pausedMs += entry.duration;
    longestMs = Math.max(longestMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

// 10 ms sampling: a delay is seen to within about that much, and the monitor costs nothing noticeable.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

// The bench that started this process is gone (it crashed or was killed): a measured process left
// running would take CPU and memory from every later run on the machine.
process.on('disconnect', () => process.exit(0));

process.on('message', (message) => {
  if (message === 'memory') {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    // The heap counts the ArrayBuffers JavaScript holds too: typed-array columns (the watch cache's
    // event window) live outside V8's heap, and moving data there must not look like saving it.
    const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
    process.send?.({ heapUsed: heapUsed + arrayBuffers, rss });
  } else if (message === 'reduce') {
    globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    process.send?.('reduced');
  } else if (message === 'loop') {
    process.send?.({ maxMs: loopDelay.max / 1e6 });
    loopDelay.reset();
  } else if (message === 'gc') {
    const cpu = process.cpuUsage();
    process.send?.({ pausedMs, longestMs, cpuMs: (cpu.user + cpu.system) / 1000 });
    longestMs = 0;
  }
});
