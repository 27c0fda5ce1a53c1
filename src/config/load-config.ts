// Building the one Config of a process: defaults, then the config file, then environment
// variables, then command-line flags (flags beat env, env beats file). The file is checked
// against the schema (config-schema.ts), which fills in the defaults; then the values that need
// it are parsed, here and only here. Nothing else in cachegate reads process.env or argv.

import { parse as parseYaml } from 'yaml';
import type { CacheConfig, Config, ConfigFile } from './config.js';
import { completeAuth } from './auth-config.js';
import { ConfigError } from './config-error.js';
import { ConfigSchema, DEFAULT_CACHE_TTL } from './config-schema.js';
import { compileValidator } from './config-validator.js';
import { parseDuration } from './duration.js';
import { GVK_FORMAT, parseGvk } from './gvk.js';

/** ConfigInputs are where configuration comes from; tests pass their own. */
export interface ConfigInputs {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile: (path: string) => string;
}

const FLAGS = new Set(['--host', '--port', '--config', '--log-level', '--data-dir']);
const validateConfigFile = compileValidator(ConfigSchema);

/** loadConfig builds and validates the configuration; any mistake throws a ConfigError. */
export function loadConfig(inputs: ConfigInputs): Config {
  const flags = parseFlags(inputs.argv);
  const file = flags['config'] ?? inputs.env['CACHEGATE_CONFIG'];
  const layered: Record<string, unknown> = file === undefined ? {} : readConfigFile(file, inputs.readFile);
  const overrides: Array<[string, string | undefined]> = [
    ['host', flags['host'] ?? inputs.env['HOST']],
    ['port', flags['port'] ?? inputs.env['PORT']],
    ['logLevel', flags['log-level'] ?? inputs.env['LOG_LEVEL']],
  ];
  for (const [key, value] of overrides) if (value !== undefined && value !== '') layered[key] = value;
  const dataDir = flags['data-dir'] ?? inputs.env['CACHEGATE_DATA_DIR'];
  if (dataDir !== undefined && dataDir !== '') layered['store'] = { ...asSection(layered['store']), dataDir };
  return deepFreeze(completeConfig(validateConfigFile(layered, ''), inputs.readFile));
}

/** DEFAULT_CONFIG is what `npm start` runs with: the embedded source with cluster `root` on 127.0.0.1:8080. */
export const DEFAULT_CONFIG: Config = loadConfig({ argv: [], env: {}, readFile: () => '' });

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

/** asSection is a config file's section to add an override to (a wrong shape is left for the schema to name). */
function asSection(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
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

/** completeConfig parses what the schema left as text and runs the checks that span fields. */
function completeConfig(file: ConfigFile, readFile: (path: string) => string): Config {
  if (!file.embedded.enabled && file.sources.length === 0) {
    throw new ConfigError('sources', 'must name at least one source when embedded.enabled is false');
  }
  const { cache, auth, ...rest } = file;
  const completedAuth = completeAuth(auth, readFile);
  return { ...rest, cache: parseCache(cache), ...(completedAuth === undefined ? {} : { auth: completedAuth }) };
}

function parseCache(cache: ConfigFile['cache']): CacheConfig {
  const gvks = cache.gvks.map((text, i) => {
    const gvk = parseGvk(text);
    if (gvk === undefined) throw new ConfigError(`cache.gvks[${i}]`, `must be ${GVK_FORMAT}`);
    return gvk;
  });
  // As in the seed, a zero TTL means the default one.
  const ttlMs = parseDuration(cache.ttl) || parseDuration(DEFAULT_CACHE_TTL) || 0;
  return { enabled: cache.enabled, gvks, ttlMs };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
