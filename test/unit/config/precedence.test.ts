// Where each setting comes from: command-line flags beat environment variables, which beat the
// config file, which beats the defaults. An empty environment variable counts as unset.

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { numbered } from '../apimachinery/numbered.js';

const FILES: Record<string, string> = {
  'a.yaml': 'host: 10.0.0.1\nport: 7000\nlogLevel: warn\n',
  'b.yaml': 'host: 10.0.0.2\nport: 7001\nlogLevel: error\n',
};

function load(argv: string[], env: Record<string, string | undefined>) {
  const config = loadConfig({
    argv, env,
    readFile: (path) => {
      const text = FILES[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
  });
  return { host: config.host, port: config.port, logLevel: config.logLevel };
}

describe('config precedence', () => {
  it.each(numbered([
    { name: 'defaults', argv: [], env: {}, want: { host: '127.0.0.1', port: 8080, logLevel: 'info' } },
    { name: 'the file beats the defaults', argv: ['--config', 'a.yaml'], env: {}, want: { host: '10.0.0.1', port: 7000, logLevel: 'warn' } },
    { name: 'CACHEGATE_CONFIG names the file', argv: [], env: { CACHEGATE_CONFIG: 'a.yaml' }, want: { host: '10.0.0.1', port: 7000, logLevel: 'warn' } },
    { name: '--config beats CACHEGATE_CONFIG', argv: ['--config', 'b.yaml'], env: { CACHEGATE_CONFIG: 'a.yaml' }, want: { host: '10.0.0.2', port: 7001, logLevel: 'error' } },
    { name: 'env beats the file', argv: ['--config', 'a.yaml'], env: { HOST: '0.0.0.0', PORT: '7100', LOG_LEVEL: 'debug' }, want: { host: '0.0.0.0', port: 7100, logLevel: 'debug' } },
    { name: 'flags beat env', argv: ['--config=a.yaml', '--host', '::1', '--port=7200', '--log-level', 'trace'], env: { HOST: '0.0.0.0', PORT: '7100', LOG_LEVEL: 'debug' }, want: { host: '::1', port: 7200, logLevel: 'trace' } },
    { name: 'one flag overrides one field only', argv: ['--config', 'a.yaml', '--port', '7300'], env: { HOST: '0.0.0.0' }, want: { host: '0.0.0.0', port: 7300, logLevel: 'warn' } },
    { name: 'an empty env var counts as unset', argv: ['--config', 'a.yaml'], env: { HOST: '', PORT: '', LOG_LEVEL: '' }, want: { host: '10.0.0.1', port: 7000, logLevel: 'warn' } },
  ]))('case $n: $name', ({ argv, env, want }) => {
    expect(load(argv, env)).toEqual(want);
  });

  it.each(numbered([
    { name: 'a bad env port names port', argv: [], env: { PORT: 'eighty' }, message: 'invalid config: port: must be a whole number from 0 to 65535' },
    { name: 'a bad flag log level names logLevel', argv: ['--log-level', 'loud'], env: {}, message: 'invalid config: logLevel: must be one of fatal, error, warn, info, debug, trace, silent' },
    { name: 'a bad flag beats a good env value', argv: ['--port', '99999'], env: { PORT: '7100' }, message: 'invalid config: port: must be a whole number from 0 to 65535' },
  ]))('case $n: $name', ({ argv, env, message }) => {
    expect(() => load(argv, env)).toThrow(message);
  });
});
