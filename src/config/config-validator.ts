// Checking untrusted config values against a schema with ajv: the first mistake becomes a
// ConfigError naming its field, unknown fields are refused, and missing fields get the schema's
// defaults. The duration and GVK grammars are the config's own (duration.ts, gvk.ts), plugged in
// as ajv formats so a field declares `format: 'duration'` and nothing parses it a second way.

import { Ajv } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { configErrorOf } from './schema-error.js';
import { normalizeInput } from './config-input.js';
import { parseDuration } from './duration.js';
import { parseGvk } from './gvk.js';

/** ConfigValidator checks a value against its schema: the value with defaults filled in, or a ConfigError. */
export type ConfigValidator<T extends TSchema> = (value: unknown, where: string) => Static<T>;

/**
 * compileValidator compiles schema once. The compiled function keeps no state between calls
 * but the `errors` of the last call, which is read at once, in the same synchronous step.
 */
export function compileValidator<T extends TSchema>(schema: T): ConfigValidator<T> {
  const validate = newAjv().compile(schema);
  return (value, where) => {
    // A copy, for ajv writes the defaults into the value it checks.
    const input = normalizeInput(schema, value);
    if (validate(input)) return input as Static<T>;
    const [first] = validate.errors ?? [];
    if (first === undefined) throw new Error('the config validator refused a value without saying why');
    throw configErrorOf(first, where);
  };
}

function newAjv(): Ajv {
  // allErrors off: the first mistake is the one line printed. verbose: errors carry their schema,
  // which holds the words of the message.
  const ajv = new Ajv({ useDefaults: true, verbose: true, allErrors: false, strict: true });
  ajv.addFormat('duration', { type: 'string', validate: (text: string) => parseDuration(text) !== undefined });
  ajv.addFormat('gvk', { type: 'string', validate: (text: string) => parseGvk(text) !== undefined });
  ajv.addKeyword({ keyword: 'hint', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'defaultText', schemaType: 'string' });
  ajv.addKeyword({
    keyword: 'maxDuration',
    type: 'string',
    schemaType: 'string',
    // A text that is no duration at all is the format's to refuse.
    validate: (max: string, text: string) => (parseDuration(text) ?? 0) <= (parseDuration(max) ?? Number.POSITIVE_INFINITY),
  });
  return ajv;
}
