// Reading one object of untrusted configuration field by field, so that every error names the
// full path of the field (`sources[1].kind`) and unknown fields are refused rather than ignored.

import { ConfigError } from './config-error.js';

type Plain = Record<string, unknown>;

/** FieldReader reads the fields of one configuration object at a path. */
export class FieldReader {
  readonly #value: Plain;
  readonly #path: string;
  readonly #read = new Set<string>();

  constructor(value: unknown, path: string) {
    if (value === undefined || value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(path || '(top level)', 'must be an object');
    this.#value = value as Plain;
    this.#path = path;
  }

  /** field gives the path of a field of this object. */
  field(key: string): string {
    return this.#path ? `${this.#path}.${key}` : key;
  }

  #take(key: string): unknown {
    this.#read.add(key);
    return this.#value[key];
  }

  /** string reads a string field. */
  string(key: string, fallback: string, pattern?: RegExp, hint?: string): string {
    const value = this.#take(key) ?? fallback;
    if (typeof value !== 'string') throw new ConfigError(this.field(key), 'must be a string');
    if (pattern && !pattern.test(value)) throw new ConfigError(this.field(key), hint ?? `must match ${pattern.source}`);
    return value;
  }

  /** optionalString reads a string field that may be absent. */
  optionalString(key: string): string | undefined {
    const value = this.#take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw new ConfigError(this.field(key), 'must be a non-empty string');
    return value;
  }

  /** integer reads a whole number within bounds (strings of digits are accepted, as env values are strings). */
  integer(key: string, fallback: number, min: number, max: number): number {
    const raw = this.#take(key) ?? fallback;
    const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(this.field(key), `must be a whole number from ${min} to ${max}`);
    }
    return value;
  }

  /** boolean reads a true/false field. */
  boolean(key: string, fallback: boolean): boolean {
    const value = this.#take(key) ?? fallback;
    if (typeof value !== 'boolean') throw new ConfigError(this.field(key), 'must be true or false');
    return value;
  }

  /** oneOf reads a string that must be one of a fixed set. */
  oneOf<T extends string>(key: string, fallback: T, allowed: readonly T[]): T {
    const value = this.#take(key) ?? fallback;
    if (typeof value !== 'string' || !allowed.includes(value as T)) {
      throw new ConfigError(this.field(key), `must be one of ${allowed.join(', ')}`);
    }
    return value as T;
  }

  /** list reads an array field, handing each element's path to read. */
  list<T>(key: string, fallback: readonly T[], read: (element: unknown, path: string) => T): T[] {
    const value = this.#take(key) ?? fallback;
    if (!Array.isArray(value)) throw new ConfigError(this.field(key), 'must be a list');
    return value.map((element, i) => read(element, `${this.field(key)}[${i}]`));
  }

  /** object reads a nested object field. */
  object<T>(key: string, read: (reader: FieldReader) => T): T {
    const reader = new FieldReader(this.#take(key), this.field(key));
    const result = read(reader);
    reader.done();
    return result;
  }

  /** optionalObject reads a nested object field that may be absent (undefined then). */
  optionalObject<T>(key: string, read: (reader: FieldReader) => T): T | undefined {
    if (this.#value[key] === undefined || this.#value[key] === null) {
      this.#read.add(key);
      return undefined;
    }
    return this.object(key, read);
  }

  /** optionalList reads an array field that may be absent (undefined then). */
  optionalList<T>(key: string, read: (element: unknown, path: string) => T): T[] | undefined {
    if (this.#value[key] === undefined) {
      this.#read.add(key);
      return undefined;
    }
    return this.list(key, [], read);
  }

  /** done refuses any field that was not read: a typo must not be silently ignored. */
  done(): void {
    for (const key of Object.keys(this.#value)) {
      if (!this.#read.has(key)) throw new ConfigError(this.field(key), 'unknown field');
    }
  }
}
