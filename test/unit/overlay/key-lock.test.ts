import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../../src/overlay/key-lock.js';

// Yields to the microtask queue n times, so other tasks interleave without real timers.
async function yieldTimes(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

describe('KeyedMutex', () => {
  it('case 1: calls with one key never overlap and run in call order', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let inside = 0;
    const task = (id: number, work: number) =>
      mutex.run('k', async () => {
        inside++;
        expect(inside).toBe(1);
        log.push(`start ${id}`);
        await yieldTimes(work);
        log.push(`end ${id}`);
        inside--;
        return id;
      });
    const results = await Promise.all([task(1, 5), task(2, 1), task(3, 3)]);
    expect(results).toEqual([1, 2, 3]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('case 2: different keys run in parallel', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (k: string) =>
      mutex.run(k, async () => {
        log.push(`start ${k}`);
        await yieldTimes(3);
        log.push(`end ${k}`);
      });
    await Promise.all([task('a'), task('b')]);
    expect(log.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('case 3: a failing call releases the key and its error reaches only its caller', async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.run('k', async () => {
      await yieldTimes(1);
      throw new Error('boom');
    });
    const next = mutex.run('k', async () => 'after');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });

  it('case 4: a synchronous throw inside fn also releases the key', async () => {
    const mutex = new KeyedMutex();
    const bad = (): Promise<never> => {
      throw new Error('sync');
    };
    await expect(mutex.run('k', bad)).rejects.toThrow('sync');
    await expect(mutex.run('k', async () => 1)).resolves.toBe(1);
    expect(mutex.activeKeys()).toBe(0);
  });

  it('case 5: idle keys are removed, so 1000 keys used once leave nothing behind', async () => {
    const mutex = new KeyedMutex();
    const runs = Array.from({ length: 1000 }, (_, i) => mutex.run(`key-${i}`, async () => i));
    expect(mutex.activeKeys()).toBe(1000);
    await Promise.all(runs);
    expect(mutex.activeKeys()).toBe(0);
  });

  it('case 6: a key stays while callers wait, and goes with the last one', async () => {
    const mutex = new KeyedMutex();
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = mutex.run('k', () => gate);
    const second = mutex.run('k', async () => undefined);
    await yieldTimes(5);
    expect(mutex.activeKeys()).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(mutex.activeKeys()).toBe(0);
  });
});
