// The one duration grammar of the config (Go's time.ParseDuration without a sign and without
// units below a millisecond): what it accepts, in milliseconds, and what it refuses.

import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/config/duration.js';
import { numbered } from '../apimachinery/numbered.js';

describe('parseDuration', () => {
  it.each(numbered([
    { text: '1h30m', ms: 5_400_000 },
    { text: '90s', ms: 90_000 },
    { text: '1m30s', ms: 90_000 },
    { text: '500ms', ms: 500 },
    { text: '2m', ms: 120_000 },
    { text: '1.5h', ms: 5_400_000 },
    { text: '1s500ms', ms: 1500 },
    { text: '0', ms: 0 },
    { text: '0s', ms: 0 },
    { text: '30s1m', ms: 90_000 },
    { text: '0.5ms', ms: 1 },
    { text: '24h', ms: 86_400_000 },
  ]))('case $n: "$text" is $ms ms', ({ text, ms }) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(numbered([
    { text: '', why: 'empty' },
    { text: '2', why: 'a number without a unit' },
    { text: 'm', why: 'a unit without a number' },
    { text: '2 minutes', why: 'words' },
    { text: ' 2m', why: 'a leading space' },
    { text: '2m ', why: 'a trailing space' },
    { text: '-5s', why: 'a sign' },
    { text: '+5s', why: 'a plus sign' },
    { text: '5d', why: 'days' },
    { text: '100ns', why: 'nanoseconds' },
    { text: '1us', why: 'microseconds' },
    { text: '2M', why: 'an upper-case unit' },
    { text: '1.5', why: 'a fraction without a unit' },
    { text: '.5s', why: 'a fraction without its integer part' },
    { text: '1e3s', why: 'an exponent' },
    { text: '1h-30m', why: 'a sign inside' },
    { text: '1,5s', why: 'a decimal comma' },
    { text: `${'9'.repeat(400)}h`, why: 'beyond what a number holds' },
  ]))('case $n: "$text" ($why) is refused', ({ text }) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
