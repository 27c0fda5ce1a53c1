// The config schema's validation messages: each mistake is one line, `invalid config: <field>:
// <problem>`, naming the full path of the field. One row per kind of field and mistake.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { numbered } from '../apimachinery/numbered.js';

const TOKEN = 'a-token-of-sixteen-chars';

function messageOf(file: string): string {
  try {
    loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => file });
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return 'loaded';
}

describe('config schema: validation messages', () => {
  it.each(numbered([
    // wrong type
    { name: 'integer given a word', file: 'port: eighty', message: 'port: must be a whole number from 0 to 65535' },
    { name: 'integer given a fraction', file: 'limits: {bodyBytes: 1.5}', message: 'limits.bodyBytes: must be a whole number from 1024 to 67108864' },
    { name: 'integer given true', file: 'workers: {replication: true}', message: 'workers.replication: must be a whole number from 1 to 1024' },
    { name: 'boolean given a word', file: 'embedded: {enabled: yes}', message: 'embedded.enabled: must be true or false' },
    { name: 'boolean given a number', file: 'cache: {enabled: 1}', message: 'cache.enabled: must be true or false' },
    { name: 'string given a number', file: 'sources: [{name: a, kubeconfig: 5}]', message: 'sources[0].kubeconfig: must be a non-empty string' },
    { name: 'list given a mapping', file: 'sources: {name: a}', message: 'sources: must be a list' },
    { name: 'section given a list', file: 'cache: [1]', message: 'cache: must be an object' },
    { name: 'section given a number', file: 'embedded: 5', message: 'embedded: must be an object' },
    { name: 'list element of the wrong type', file: 'embedded: {clusters: [5]}', message: 'embedded.clusters[0]: must be a logical cluster name matching ^[a-z0-9]([a-z0-9:-]*[a-z0-9])?$' },
    // out of range
    { name: 'port above 65535', file: 'port: 70000', message: 'port: must be a whole number from 0 to 65535' },
    { name: 'workers of 0', file: 'workers: {replication: 0}', message: 'workers.replication: must be a whole number from 1 to 1024' },
    { name: 'event window below 100', file: 'store: {eventWindow: 5}', message: 'store.eventWindow: must be a whole number from 100 to 10000000' },
    { name: 'negative watch timeout', file: 'watch: {timeoutSeconds: -1}', message: 'watch.timeoutSeconds: must be a whole number from 1 to 86400' },
    { name: 'nested section out of range', file: 'graphql: {websocket: {initTimeoutMs: 0}}', message: 'graphql.websocket.initTimeoutMs: must be a whole number from 100 to 600000' },
    // unknown field
    { name: 'unknown top-level field', file: 'prot: 1', message: 'prot: unknown field' },
    { name: 'unknown field in a section', file: 'cache: {ttls: 2m}', message: 'cache.ttls: unknown field' },
    { name: 'unknown field in a list element', file: 'sources: [{name: a, knd: kube}]', message: 'sources[0].knd: unknown field' },
    { name: 'unknown field two levels down', file: 'graphql: {websocket: {maxFrames: 1}}', message: 'graphql.websocket.maxFrames: unknown field' },
    // bad enum
    { name: 'source kind', file: 'sources: [{name: a, kind: openshift}]', message: 'sources[0].kind: must be one of kube, kcp' },
    { name: 'log level', file: 'logLevel: loud', message: 'logLevel: must be one of fatal, error, warn, info, debug, trace, silent' },
    { name: 'enum given a number', file: 'sources: [{name: a, kind: 5}]', message: 'sources[0].kind: must be one of kube, kcp' },
    { name: 'auth metrics', file: `auth: {tokens: [{token: ${TOKEN}, user: a}], metrics: closed}`, message: 'auth.metrics: must be one of open, protected' },
    { name: 'token verb', file: `auth: {tokens: [{token: ${TOKEN}, user: a, verbs: [delete]}]}`, message: 'auth.tokens[0].verbs[0]: must be one of read, write' },
    // bad duration
    { name: 'ttl in words', file: 'cache: {ttl: soon}', message: 'cache.ttl: must be a duration such as 1h30m, 90s or 500ms' },
    { name: 'ttl without a unit', file: 'cache: {ttl: 120}', message: 'cache.ttl: must be a duration such as 1h30m, 90s or 500ms' },
    { name: 'negative ttl', file: 'cache: {ttl: -5s}', message: 'cache.ttl: must be a duration such as 1h30m, 90s or 500ms' },
    { name: 'ttl in days', file: 'cache: {ttl: 2d}', message: 'cache.ttl: must be a duration such as 1h30m, 90s or 500ms' },
    { name: 'ttl above a day', file: 'cache: {ttl: 24h1s}', message: 'cache.ttl: must be at most 24h' },
    // bad pattern or format
    { name: 'source name', file: 'sources: [{name: Prod}]', message: 'sources[0].name: must be a lowercase DNS label' },
    { name: 'logical cluster name', file: 'embedded: {clusters: [root, Team]}', message: 'embedded.clusters[1]: must be a logical cluster name matching ^[a-z0-9]([a-z0-9:-]*[a-z0-9])?$' },
    { name: 'gvk', file: 'cache: {gvks: [v1/Secret, Instance]}', message: 'cache.gvks[1]: must be "<group>/<version>/<Kind>"' },
    { name: 'host', file: 'host: "a b"', message: 'host: must be a host name or IP address' },
    { name: 'empty string', file: 'sources: [{name: a, context: ""}]', message: 'sources[0].context: must be a non-empty string' },
    { name: 'short token', file: 'auth: {tokens: [{token: short, user: a}]}', message: 'auth.tokens[0].token: must be at least 16 characters' },
    // missing or cross-field
    { name: 'source without a name', file: 'sources: [{kind: kcp}]', message: 'sources[0].name: is required' },
    { name: 'token without a user', file: `auth: {tokens: [{token: ${TOKEN}}]}`, message: 'auth.tokens[0].user: is required' },
    { name: 'no source at all', file: 'embedded: {enabled: false}', message: 'sources: must name at least one source when embedded.enabled is false' },
    { name: 'a file that is a list', file: '[1, 2]', message: '(top level): c.yaml must hold a mapping of fields' },
  ]))('case $n: $name', ({ file, message }) => {
    expect(messageOf(file)).toBe(`invalid config: ${message}`);
  });
});

describe('config schema: what loads', () => {
  it.each(numbered([
    { name: 'an integer written as a string of digits', file: 'port: "9000"', want: { port: 9000 } },
    { name: 'a field with no value keeps its default', file: 'port:\nembedded:\n', want: { port: 8080, embedded: { enabled: true, clusters: ['root'] } } },
    { name: 'a section keeps the defaults of the fields it leaves out', file: 'watch: {timeoutSeconds: 60}', want: { watch: { timeoutSeconds: 60, bookmarkIntervalSeconds: 60, maxBufferedBytes: 16_777_216 } } },
    { name: 'a source gets kind kube', file: 'sources: [{name: a}]', want: { sources: [{ name: 'a', kind: 'kube' }] } },
  ]))('case $n: $name', ({ file, want }) => {
    expect(loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => file })).toMatchObject(want);
  });
});
