// Building the one Config of a process: defaults, then the config file, then environment
// variables, then command-line flags (flags beat env, env beats file). Nothing else in
// cachegate reads process.env or argv.

import { parse as parseYaml } from 'yaml';
import type { Config, SourceConfig } from './config.js';
import { LOGICAL_CLUSTER_NAME_PATTERN } from '../apimachinery/logical-cluster.js';
import { DEFAULT_CONFIG, LOG_LEVELS } from './config.js';
import { ConfigError } from './config-error.js';
import { FieldReader } from './field-reader.js';
import { readAuth } from './auth-config.js';

/** ConfigInputs are where configuration comes from; tests pass their own. */
export interface ConfigInputs {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile: (path: string) => string;
}

const FLAGS = new Set(['--host', '--port', '--config', '--log-level']);
const DURATION = /^\d+(ms|s|m|h)$/;
// `<group>/<version>/<Kind>`; the core group may be written `v1/Secret` (as the seed does) or `/v1/Secret`.
const GVK = /^([a-z0-9.-]*\/)?[a-z0-9]+\/[A-Za-z][A-Za-z0-9]*$/;

/** loadConfig builds and validates the configuration; any mistake throws a ConfigError. */
export function loadConfig(inputs: ConfigInputs): Config {
  const flags = parseFlags(inputs.argv);
  const file = flags['config'] ?? inputs.env['CACHEGATE_CONFIG'];
  const fromFile = file === undefined ? {} : readConfigFile(file, inputs.readFile);
  const layered: Record<string, unknown> = { ...fromFile };
  const overrides: Array<[string, string | undefined]> = [
    ['host', flags['host'] ?? inputs.env['HOST']],
    ['port', flags['port'] ?? inputs.env['PORT']],
    ['logLevel', flags['log-level'] ?? inputs.env['LOG_LEVEL']],
  ];
  for (const [key, value] of overrides) if (value !== undefined && value !== '') layered[key] = value;
  return deepFreeze(readConfig(new FieldReader(layered, ''), inputs.readFile));
}

function parseFlags(argv: readonly string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [name = '', inline] = arg.split(/=(.*)/s, 2);
    if (!FLAGS.has(name)) throw new ConfigError(arg, `unknown command-line argument (known: ${[...FLAGS].join(', ')})`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new ConfigError(name, 'needs a value');
    flags[name.slice(2)] = value;
  }
  return flags;
}

function readConfigFile(path: string, readFile: (path: string) => string): Record<string, unknown> {
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    throw new ConfigError('--config', `cannot read ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text) ?? {};
  } catch (err) {
    throw new ConfigError('--config', `${path} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('(top level)', `${path} must hold a mapping of fields`);
  }
  return parsed as Record<string, unknown>;
}

function readConfig(r: FieldReader, readFile: (path: string) => string): Config {
  const d = DEFAULT_CONFIG;
  const config: Config = {
    host: r.string('host', d.host, /^[A-Za-z0-9.:[\]-]+$/, 'must be a host name or IP address'),
    port: r.integer('port', d.port, 0, 65535),
    logLevel: r.oneOf('logLevel', d.logLevel, LOG_LEVELS),
    embedded: r.object('embedded', (e) => ({
      enabled: e.boolean('enabled', d.embedded.enabled),
      clusters: e.list('clusters', d.embedded.clusters, (v, path) => clusterName(v, path)),
    })),
    sources: r.list('sources', d.sources, readSource),
    cache: r.object('cache', (c) => ({
      enabled: c.boolean('enabled', d.cache.enabled),
      gvks: c.list('gvks', d.cache.gvks, (v, path) => matching(v, path, GVK, 'must be "<group>/<version>/<Kind>"')),
      ttl: c.string('ttl', d.cache.ttl, DURATION, 'must be a duration such as 500ms, 30s, 2m or 1h'),
    })),
    store: r.object('store', (s) => ({
      eventWindow: s.integer('eventWindow', d.store.eventWindow, 100, 10_000_000),
      eventWindowBytes: s.integer('eventWindowBytes', d.store.eventWindowBytes, 1 << 20, 2 ** 40),
    })),
    watch: r.object('watch', (w) => ({
      timeoutSeconds: w.integer('timeoutSeconds', d.watch.timeoutSeconds, 1, 86_400),
      bookmarkIntervalSeconds: w.integer('bookmarkIntervalSeconds', d.watch.bookmarkIntervalSeconds, 0, 3600),
      maxBufferedBytes: w.integer('maxBufferedBytes', d.watch.maxBufferedBytes, 65_536, 1 << 30),
    })),
    limits: r.object('limits', (l) => ({
      bodyBytes: l.integer('bodyBytes', d.limits.bodyBytes, 1024, 64 * 1024 * 1024),
      maxEventLoopDelayMs: l.integer('maxEventLoopDelayMs', d.limits.maxEventLoopDelayMs, 0, 60_000),
      minResourceVersionWaitMs: l.integer('minResourceVersionWaitMs', d.limits.minResourceVersionWaitMs, 0, 60_000),
    })),
    graphql: r.object('graphql', (g) => ({
      websocket: g.object('websocket', (w) => ({
        maxMessageBytes: w.integer('maxMessageBytes', d.graphql.websocket.maxMessageBytes, 1024, 64 * 1024 * 1024),
        messagesPerSecond: w.integer('messagesPerSecond', d.graphql.websocket.messagesPerSecond, 1, 1_000_000),
        messageBurst: w.integer('messageBurst', d.graphql.websocket.messageBurst, 1, 10_000_000),
        initTimeoutMs: w.integer('initTimeoutMs', d.graphql.websocket.initTimeoutMs, 100, 600_000),
      })),
    })),
    workers: r.object('workers', (w) => ({
      clusterCachedResources: w.integer('clusterCachedResources', d.workers.clusterCachedResources, 1, 64),
      replication: w.integer('replication', d.workers.replication, 1, 64),
    })),
  };
  const auth = readAuth(r, readFile);
  r.done();
  if (!config.embedded.enabled && config.sources.length === 0) {
    throw new ConfigError('sources', 'must name at least one source when embedded.enabled is false');
  }
  return auth === undefined ? config : { ...config, auth };
}

function readSource(value: unknown, path: string): SourceConfig {
  const r = new FieldReader(value, path);
  const source: SourceConfig = {
    name: r.string('name', '', /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be a lowercase DNS label'),
    kind: r.oneOf('kind', 'kube', ['kube', 'kcp'] as const),
    kubeconfig: r.optionalString('kubeconfig'),
    context: r.optionalString('context'),
    cluster: r.optionalString('cluster'),
  };
  r.done();
  if (source.cluster !== undefined) clusterName(source.cluster, `${path}.cluster`);
  return source;
}

function clusterName(value: unknown, path: string): string {
  return matching(value, path, LOGICAL_CLUSTER_NAME_PATTERN, `must be a logical cluster name matching ${LOGICAL_CLUSTER_NAME_PATTERN.source}`);
}

function matching(value: unknown, path: string, pattern: RegExp, hint: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new ConfigError(path, hint);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
