// Preloaded into the soak's own cachegate (with --expose-gc): SIGUSR2 runs a full collection,
// so the heap measured before and after the load is live memory, not garbage V8 has simply not
// collected yet while idle.

const gc = (globalThis as { gc?: () => void }).gc;
if (gc) process.on('SIGUSR2', () => gc());
