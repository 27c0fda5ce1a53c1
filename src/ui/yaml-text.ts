// A small YAML emitter for JSON values, enough to show a Kubernetes object as kubectl would:
// block mappings and sequences, plain scalars where YAML reads them back as the same string,
// and JSON-quoted strings everywhere else (a JSON string is a valid YAML double-quoted scalar,
// so quoting never changes a value). The output parses back to the same JSON value.

/** JsonValue is any value JSON.parse returns. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * PLAIN is a string YAML reads back unchanged when written bare: a letter or underscore first (so
 * never a number, a date, an indicator like `-`, `?`, `*`, `&`, `!`), then no character that
 * YAML gives a meaning (`: `, ` #`, quotes, brackets, commas).
 */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/;

/** RESERVED are the words YAML 1.1 or 1.2 reads as booleans or null (any case). */
const RESERVED = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/** toYaml writes a value as a YAML document (without the leading `---`). */
export function toYaml(value: JsonValue): string {
  return isCollection(value) && !isEmpty(value) ? block(value, 0) : `${scalar(value)}\n`;
}

function block(value: readonly JsonValue[] | { readonly [key: string]: JsonValue }, indent: number): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    return value.map((item: JsonValue) => {
      if (!isCollection(item) || isEmpty(item)) return `${pad}- ${scalar(item)}\n`;
      // The first line of a nested block goes on the dash's line, the rest lines up under it.
      return `${pad}- ${block(item, indent + 2).slice(indent + 2)}`;
    }).join('');
  }
  return Object.entries(value).map(([key, item]) => {
    const name = `${pad}${string(key)}:`;
    if (!isCollection(item) || isEmpty(item)) return `${name} ${scalar(item)}\n`;
    // Sequences under a key are indented too, as kubectl writes them.
    return `${name}\n${block(item, indent + 2)}`;
  }).join('');
}

function scalar(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return string(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? '[]' : '{}';
}

function string(value: string): string {
  if (PLAIN.test(value) && !RESERVED.has(value.toLowerCase())) return value;
  // JSON escapes the C0 controls; YAML also wants DEL, the C1 controls (but NEL) and the BOM escaped.
  return JSON.stringify(value).replace(/[\u007f-\u0084\u0086-\u009f\ufeff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isCollection(value: JsonValue): value is readonly JsonValue[] | { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null;
}

function isEmpty(value: readonly JsonValue[] | { readonly [key: string]: JsonValue }): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}
