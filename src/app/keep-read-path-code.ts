// How the process asks V8 to keep compiled code: set once per process, before the app is built,
// by the entry point (and by the bench's source process, which is a cachegate as deployed).
//
// V8 discards the bytecode, and with it the type feedback, of functions that have not run for a
// few major GCs. A long initial sync runs many major GCs while the read path sits idle, so the
// read path's small functions are flushed; when reads start, their callers can be optimized before
// those functions have feedback again, cannot inline them, and stay that way. About one process
// in three (4 of 12 durable-backend processes in the system bench) then spent 35-40% more CPU per
// point read for as long as it ran; with flushing off, 0 of 9. What is kept is the bytecode of
// functions that ran once (about 1 MiB after a sync of 100k objects).

import { setFlagsFromString } from 'node:v8';

/** keepReadPathCode turns V8's bytecode flushing off for this process. */
export function keepReadPathCode(): void {
  setFlagsFromString('--no-flush-bytecode');
}
