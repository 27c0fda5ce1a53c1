// Config `store.eventWindowBytes`: its default follows the V8 heap limit, a value is read, and a
// bad value is refused with one line naming the field.
//   case 1: the default is an eighth of the heap limit.
//   case 2: a value in the config file is used.
//   cases 3-5: out of range or not a whole number → ConfigError naming store.eventWindowBytes.

import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';

const fromFile = (text: string) => loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => text });

describe('config store.eventWindowBytes', () => {
  it('case 1: the default is an eighth of the heap limit', () => {
    expect(loadConfig({ argv: [], env: {}, readFile: () => '' }).store.eventWindowBytes).toBe(Math.floor(getHeapStatistics().heap_size_limit / 8));
  });

  it('case 2: a value in the config file is used', () => {
    expect(fromFile('store: {eventWindowBytes: 67108864}\n').store).toMatchObject({ eventWindow: 100_000, eventWindowBytes: 67_108_864 });
  });

  it.each([
    ['case 3: below 1 MiB', '1000'],
    ['case 4: not a whole number', '1.5'],
    ['case 5: not a number', '"lots"'],
  ])('%s is refused', (_name, value) => {
    expect(() => fromFile(`store: {eventWindowBytes: ${value}}\n`)).toThrow(/store\.eventWindowBytes: must be a whole number from 1048576 to 1099511627776/);
  });
});
