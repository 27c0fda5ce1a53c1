// Config `store`: the backend and where it keeps its state. The data directory comes from the
// file, CACHEGATE_DATA_DIR or --data-dir (flag beats env beats file), and is accepted with every
// backend, so one file can switch backend; etcd's fields have their defaults and checks.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/load-config.js';

const load = (text: string, argv: string[] = [], env: Record<string, string> = {}) =>
  loadConfig({ argv: ['--config', 'c.yaml', ...argv], env, readFile: () => text });

function refusal(text: string): string {
  try {
    load(text);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
  }
  return 'accepted';
}

describe('config store', () => {
  it('case 1: by default the local backend keeps its state in ./.cachegate, durably', () => {
    expect(load('').store).toMatchObject({ backend: 'local', dataDir: './.cachegate', fsync: true });
  });

  it.each([
    ['case 2: the file', [], {}, '/from/file'],
    ['case 3: the environment beats the file', [], { CACHEGATE_DATA_DIR: '/from/env' }, '/from/env'],
    ['case 4: the flag beats the environment', ['--data-dir', '/from/flag'], { CACHEGATE_DATA_DIR: '/from/env' }, '/from/flag'],
  ])('%s sets the data directory', (_name, argv, env, expected) => {
    expect(load('store: {dataDir: /from/file, eventWindow: 500}\n', argv, env).store).toMatchObject({ dataDir: expected, eventWindow: 500 });
  });

  it('case 5: dataDir is accepted with the etcd and memory backends', () => {
    expect(load('store: {backend: memory, dataDir: /unused}\n').store.backend).toBe('memory');
    expect(load('store: {backend: etcd, dataDir: /unused}\n').store.etcd).toEqual({
      endpoints: ['http://127.0.0.1:2379'], prefix: '/cachegate', dialTimeoutSeconds: 5, compactIntervalMinutes: 5,
    });
  });

  it.each([
    ['case 6: an unknown backend', 'store: {backend: sqlite}', 'store.backend: must be one of local, etcd, memory'],
    ['case 7: a prefix without its leading slash', 'store: {etcd: {prefix: cachegate}}', 'store.etcd.prefix: must start with / and not end with /'],
    ['case 8: a prefix ending in a slash', 'store: {etcd: {prefix: /cachegate/}}', 'store.etcd.prefix: must start with / and not end with /'],
    ['case 9: an empty data directory', 'store: {dataDir: ""}', 'store.dataDir: must be a non-empty string'],
    ['case 10: an unknown etcd field', 'store: {etcd: {endpoint: x}}', 'store.etcd.endpoint'],
  ])('%s is refused naming the field', (_name, text, message) => {
    expect(refusal(text)).toContain(message);
  });
});
