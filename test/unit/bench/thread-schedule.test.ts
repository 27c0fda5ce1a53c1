// mainThreadSchedule reads a process's main thread from /proc (Linux): CPU time that grows with
// work done on it, and time spent waiting for a CPU; scheduleBetween is the difference.

import { describe, expect, it } from 'vitest';
import { mainThreadSchedule, scheduleBetween } from '../../../bench/system/thread-schedule.js';

describe('mainThreadSchedule', () => {
  it('case 1: this thread\'s CPU time grows with work it does, and the wait never goes back', () => {
    const before = mainThreadSchedule(process.pid);
    expect(before).toBeDefined();
    const started = process.cpuUsage();
    // Busy until the process has used 50 ms of CPU more: measured by the kernel, not by a clock.
    while ((process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000 < 50) Math.sqrt(Math.random());
    const spent = scheduleBetween(before, mainThreadSchedule(process.pid));
    expect(spent?.runMs).toBeGreaterThanOrEqual(40);
    expect(spent?.waitMs).toBeGreaterThanOrEqual(0);
  });

  it('case 2: a process that does not exist has no schedule, and nothing is taken from nothing', () => {
    expect(mainThreadSchedule(2 ** 30)).toBeUndefined();
    expect(scheduleBetween(undefined, { runMs: 1, waitMs: 1 })).toBeUndefined();
  });
});
