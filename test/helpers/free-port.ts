// Ports for servers a test starts and must name before they listen (cachegate processes, etcd
// members, a source that restarts on its port).
//
// Asking the kernel for port 0 and closing it again is a race: the kernel hands the same number
// to the next `listen(0)` of any process, and on a loaded machine another test file's in-process
// server can take it before the process this port was meant for binds it. That process then
// fails to start while the test talks to a stranger on its port. So the ports come from below the
// kernel's ephemeral range, which `listen(0)` and outgoing connections never use, and each
// concurrent test worker takes them from a slice of its own.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port handed out: above the well-known and most registered service ports. */
const FIRST = 20_000;
/** Slices for concurrent workers; vitest numbers them from 1 (VITEST_POOL_ID). */
const SLICES = 8;

/** ephemeralFloor is where the kernel's own port range starts (Linux), 32768 where unknown. */
function ephemeralFloor(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FIRST + SLICES * 64 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** PortPool hands out ports of one slice, each once per test file, checking that nothing listens there now. */
class PortPool {
  private readonly first: number;
  private readonly size: number;
  private readonly handedOut = new Set<number>();
  private next: number;

  constructor(slice: number, floor: number) {
    this.size = Math.floor((floor - FIRST) / SLICES);
    this.first = FIRST + (slice % SLICES) * this.size;
    // A random start, so files that run one after another in a worker do not start on the
    // ports a process of the previous file may still hold.
    this.next = Math.floor(Math.random() * this.size);
  }

  async take(): Promise<number> {
    for (let tried = 0; tried < this.size; tried++) {
      const port = this.first + (this.next++ % this.size);
      if (this.handedOut.has(port) || !(await listensFree(port))) continue;
      this.handedOut.add(port);
      return port;
    }
    throw new Error(`no free port in ${this.first}-${this.first + this.size - 1}`);
  }
}

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// One pool per test file (vitest gives each file its own module graph); the worker's slice keeps
// files that run at the same time apart.
const pool = new PortPool(Number(process.env.VITEST_POOL_ID ?? process.pid), ephemeralFloor());

/** freePort is a loopback port where nothing listens now and that no other concurrent test is given. */
export function freePort(): Promise<number> {
  return pool.take();
}
