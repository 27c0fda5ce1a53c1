// The `auth` section of the config: inline tokens, a tokens file, defaults, and one clear
// ConfigError per mistake that names the field and never the token.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/load-config.js';

const TOKEN = 'a-token-of-sixteen-chars';

function load(config: string, files: Record<string, string> = {}) {
  const all: Record<string, string> = { 'c.yaml': config, ...files };
  return loadConfig({
    argv: ['--config', 'c.yaml'], env: {},
    readFile: (path) => {
      const text = all[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
  });
}

function configError(config: string, files: Record<string, string> = {}): ConfigError {
  try {
    load(config, files);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('auth config', () => {
  it('case 1: no auth section leaves auth off', () => {
    expect(load('port: 1').auth).toBeUndefined();
  });

  it('case 2: inline tokens get defaults: every cluster, read and write, metrics open, no rate limit', () => {
    const auth = load(`auth: {tokens: [{token: ${TOKEN}, user: alice}]}`).auth;
    expect(auth).toEqual({ tokens: [{ token: TOKEN, user: 'alice', verbs: ['read', 'write'] }], metrics: 'open' });
    expect(Object.isFrozen(auth?.tokens[0])).toBe(true);
  });

  it('case 3: clusters, verbs, metrics and rateLimit are read; burst defaults to the rate', () => {
    const auth = load(`auth:
  tokens: [{token: ${TOKEN}, user: bob, clusters: [root, "team:a"], verbs: [read]}]
  metrics: protected
  rateLimit: {requestsPerSecond: 20}`).auth;
    expect(auth).toMatchObject({
      tokens: [{ user: 'bob', clusters: ['root', 'team:a'], verbs: ['read'] }],
      metrics: 'protected',
      rateLimit: { requestsPerSecond: 20, burst: 20 },
    });
  });

  it('case 4: tokensFile adds its tokens (as `tokens:` or a bare list, YAML or JSON)', () => {
    const files = {
      '/secret/tokens.yaml': `tokens: [{token: file-token-0123456789, user: carol}]`,
      '/secret/tokens.json': `[{"token": "json-token-0123456789", "user": "dave", "verbs": ["read"]}]`,
    };
    expect(load(`auth: {tokens: [{token: ${TOKEN}, user: alice}], tokensFile: /secret/tokens.yaml}`, files).auth?.tokens.map((t) => t.user)).toEqual(['alice', 'carol']);
    expect(load('auth: {tokensFile: /secret/tokens.json}', files).auth).toMatchObject({ tokensFile: '/secret/tokens.json', tokens: [{ user: 'dave', verbs: ['read'] }] });
  });

  it.each([
    ['case 5: no token at all', 'auth: {}', {}, 'auth.tokens'],
    ['case 6: a short token', 'auth: {tokens: [{token: short, user: a}]}', {}, 'auth.tokens[0].token'],
    ['case 7: a token with a space', 'auth: {tokens: [{token: "has a space in it!!", user: a}]}', {}, 'auth.tokens[0].token'],
    ['case 8: no user', `auth: {tokens: [{token: ${TOKEN}}]}`, {}, 'auth.tokens[0].user'],
    ['case 9: a bad cluster name', `auth: {tokens: [{token: ${TOKEN}, user: a, clusters: [Root]}]}`, {}, 'auth.tokens[0].clusters[0]'],
    ['case 10: an empty cluster list', `auth: {tokens: [{token: ${TOKEN}, user: a, clusters: []}]}`, {}, 'auth.tokens[0].clusters'],
    ['case 11: a bad verb', `auth: {tokens: [{token: ${TOKEN}, user: a, verbs: [delete]}]}`, {}, 'auth.tokens[0].verbs[0]'],
    ['case 12: no verb', `auth: {tokens: [{token: ${TOKEN}, user: a, verbs: []}]}`, {}, 'auth.tokens[0].verbs'],
    ['case 13: an unknown token field', `auth: {tokens: [{token: ${TOKEN}, user: a, role: x}]}`, {}, 'auth.tokens[0].role'],
    ['case 14: a bad metrics value', `auth: {tokens: [{token: ${TOKEN}, user: a}], metrics: closed}`, {}, 'auth.metrics'],
    ['case 15: a zero rate', `auth: {tokens: [{token: ${TOKEN}, user: a}], rateLimit: {requestsPerSecond: 0}}`, {}, 'auth.rateLimit.requestsPerSecond'],
    ['case 16: a duplicate token', `auth: {tokens: [{token: ${TOKEN}, user: a}, {token: ${TOKEN}, user: b}]}`, {}, 'auth.tokens[1]'],
    ['case 17: a missing tokens file', 'auth: {tokensFile: /nope}', {}, 'auth.tokensFile'],
    ['case 18: a tokens file that is not YAML', 'auth: {tokensFile: /t}', { '/t': `tokens: [{token: ${TOKEN}` }, 'auth.tokensFile'],
    ['case 19: a bad token in the file', 'auth: {tokensFile: /t}', { '/t': 'tokens: [{token: short, user: a}]' }, 'auth.tokensFile(/t).tokens[0].token'],
    ['case 20: an unknown field in the file', 'auth: {tokensFile: /t}', { '/t': `tokens: [{token: ${TOKEN}, user: a}]\nusers: []` }, 'auth.tokensFile(/t).users'],
  ])('%s is a ConfigError naming the field', (_name, config, files, field) => {
    const error = configError(config, files);
    expect(error.field).toBe(field);
    expect(error.message).not.toContain(TOKEN);
  });
});
