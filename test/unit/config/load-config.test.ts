// loadConfig: layering (flags > env > file > defaults) and one clear error per bad field.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { DEFAULT_CONFIG, loadConfig } from '../../../src/config/load-config.js';

function load(argv: string[], env: Record<string, string> = {}, file?: string) {
  return loadConfig({ argv, env, readFile: () => { if (file === undefined) throw new Error('ENOENT: no such file'); return file; } });
}

describe('loadConfig', () => {
  it('case 1: no input gives the embedded default on 127.0.0.1:8080 with cluster root', () => {
    const config = load([]);
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(config.embedded).toEqual({ enabled: true, clusters: ['root'] });
    expect(Object.isFrozen(config.embedded)).toBe(true);
  });

  it('case 2: flags beat env, env beats file', () => {
    const file = 'host: 10.0.0.1\nport: 7000\n';
    expect(load(['--config', 'c.yaml'], {}, file)).toMatchObject({ host: '10.0.0.1', port: 7000 });
    expect(load(['--config', 'c.yaml'], { PORT: '7100', HOST: '0.0.0.0' }, file)).toMatchObject({ host: '0.0.0.0', port: 7100 });
    expect(load(['--config=c.yaml', '--port', '7200', '--host=::1'], { PORT: '7100' }, file)).toMatchObject({ host: '::1', port: 7200 });
  });

  it('case 3: JSON config files are read as well as YAML', () => {
    expect(load(['--config', 'c.json'], {}, '{"port": 9000, "embedded": {"clusters": ["root", "team:a"]}}')).toMatchObject({
      port: 9000, embedded: { clusters: ['root', 'team:a'] },
    });
  });

  it.each([
    ['case 4: port out of range', ['--port', '70000'], {}, undefined, 'port'],
    ['case 5: non-numeric env port', [], { PORT: 'eighty' }, undefined, 'port'],
    ['case 6: unknown flag', ['--prot', '1'], {}, undefined, '--prot'],
    ['case 7: unknown field', ['--config', 'c'], {}, 'prot: 1', 'prot'],
    ['case 8: bad source kind', ['--config', 'c'], {}, 'sources: [{name: a, kind: openshift}]', 'sources[0].kind'],
    ['case 9: bad cluster name', ['--config', 'c'], {}, 'embedded: {clusters: [Root]}', 'embedded.clusters[0]'],
    ['case 10: bad ttl', ['--config', 'c'], {}, 'cache: {ttl: soon}', 'cache.ttl'],
    ['case 11: bad gvk', ['--config', 'c'], {}, 'cache: {gvks: [Instance]}', 'cache.gvks[0]'],
    ['case 12: unreadable file', ['--config', 'missing.yaml'], {}, undefined, '--config'],
    ['case 13: not YAML', ['--config', 'c'], {}, 'port: [1', '--config'],
    ['case 14: no source at all', ['--config', 'c'], {}, 'embedded: {enabled: false}', 'sources'],
    ['case 15: flag without value', ['--port'], {}, undefined, '--port'],
  ])('%s is a ConfigError naming the field', (_name, argv, env, file, field) => {
    let error: unknown;
    try {
      load(argv, env, file);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe(field);
    expect((error as ConfigError).message).not.toContain('\n');
  });
});
