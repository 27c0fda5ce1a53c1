// `cache` is parsed once, by the config: `gvks` into structured kinds (the core group as ''),
// `ttl` into milliseconds, so the overlay receives values and parses nothing.

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { numbered } from '../apimachinery/numbered.js';

const cacheOf = (file: string) => loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => file }).cache;

describe('config cache', () => {
  it('case 1: the default is off, no kinds, a TTL of 2 minutes', () => {
    expect(cacheOf('port: 1')).toEqual({ enabled: false, gvks: [], ttlMs: 120_000 });
  });

  it('case 2: gvks are parsed into group, version and kind; every spelling of the core group is ""', () => {
    const cache = cacheOf('cache: {enabled: true, gvks: [cortex.cloud/v1alpha1/Reservation, v1/Secret, /v1/ConfigMap, core/v1/Service]}');
    expect(cache.gvks).toEqual([
      { group: 'cortex.cloud', version: 'v1alpha1', kind: 'Reservation' },
      { group: '', version: 'v1', kind: 'Secret' },
      { group: '', version: 'v1', kind: 'ConfigMap' },
      { group: '', version: 'v1', kind: 'Service' },
    ]);
    expect(Object.isFrozen(cache.gvks[0])).toBe(true);
  });

  it.each(numbered([
    { ttl: '1m30s', ms: 90_000 },
    { ttl: '1h30m', ms: 5_400_000 },
    { ttl: '500ms', ms: 500 },
    { ttl: '90s', ms: 90_000 },
    { ttl: '0s', ms: 120_000 },
    { ttl: '0', ms: 120_000 },
    { ttl: '24h', ms: 86_400_000 },
  ]))('case $n: ttl $ttl is $ms ms (0 means the default, as in the seed)', ({ ttl, ms }) => {
    expect(cacheOf(`cache: {ttl: "${ttl}"}`).ttlMs).toBe(ms);
  });
});
