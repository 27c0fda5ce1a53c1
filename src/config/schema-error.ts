// Turning the validator's first complaint into a ConfigError: the full path of the field, as the
// config writes it (`sources[1].kind`), and the problem in the words of the field's schema.

import type { ErrorObject } from 'ajv';
import { ConfigError } from './config-error.js';

type Schema = Readonly<Record<string, unknown>>;

/** configErrorOf names the field an ajv error is about and states its problem; where prefixes the path. */
export function configErrorOf(error: ErrorObject, where: string): ConfigError {
  const field = fieldPath(where, error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return new ConfigError(join(field, String(params['additionalProperty'])), 'unknown field');
  if (error.keyword === 'required') return new ConfigError(join(field, String(params['missingProperty'])), 'is required');
  return new ConfigError(field || '(top level)', problemOf(error, (error.parentSchema ?? {}) as Schema));
}

function problemOf(error: ErrorObject, schema: Schema): string {
  const hint = typeof schema['hint'] === 'string' ? schema['hint'] : undefined;
  const limit = Number((error.params as Record<string, unknown>)['limit']);
  switch (error.keyword) {
    case 'type':
    case 'minimum':
    case 'maximum':
      return wrongType(schema, hint);
    case 'enum':
      return `must be one of ${(schema['enum'] as string[]).join(', ')}`;
    case 'minLength':
      return limit === 1 ? 'must be a non-empty string' : `must be at least ${limit} characters`;
    case 'minItems':
      return hint ?? `must hold at least ${limit} items`;
    case 'maxDuration':
      return `must be at most ${String(schema['maxDuration'])}`;
    default:
      return hint ?? error.message ?? 'is not valid';
  }
}

function wrongType(schema: Schema, hint: string | undefined): string {
  if (schema['enum'] !== undefined) return `must be one of ${(schema['enum'] as string[]).join(', ')}`;
  switch (schema['type']) {
    case 'integer': return `must be a whole number from ${String(schema['minimum'])} to ${String(schema['maximum'])}`;
    case 'boolean': return 'must be true or false';
    case 'array': return 'must be a list';
    case 'object': return 'must be an object';
    default: return hint ?? 'must be a string';
  }
}

// `/sources/1/kind` → `sources[1].kind`: list indexes in brackets, as in the config's own words.
function fieldPath(where: string, pointer: string): string {
  const segments = pointer.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : join(path, segment)), where);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
