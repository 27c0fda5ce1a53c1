// Turns one protobuf message into the object its Kubernetes JSON form would give, driven by a
// MessageSchema table. Unknown field numbers are skipped (a newer client may send fields this
// build does not know), but a known field sent with the wrong wire type is malformed.

import { setOwn } from '../set-own.js';
import { TIMESTAMP_SCHEMA } from './message-schemas.js';
import type { FieldSpec, MessageSchema, ScalarType } from './message-schemas.js';
import { WIRE_TYPE, WireReader, badProtobuf } from './wire-reader.js';
import type { FieldTag, WireType } from './wire-reader.js';

// RFC3339 as Go's metav1.Time marshals it only covers four-digit years.
const MIN_RFC3339_SECONDS = -62_135_596_800; // 0001-01-01T00:00:00Z
const MAX_RFC3339_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/** decodeMessage decodes bytes with a schema, merging into target as protobuf merges repeated messages. */
export function decodeMessage(bytes: Uint8Array, schema: MessageSchema, target: Record<string, unknown> = {}): Record<string, unknown> {
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    const spec = Object.hasOwn(schema, tag.field) ? schema[tag.field] : undefined;
    if (spec === undefined || spec.type === 'ignore') {
      reader.skip(tag);
      continue;
    }
    expectWireType(tag, spec);
    decodeField(reader, spec, target);
  }
  return target;
}

/** decodeField reads one occurrence of a known field into target under its JSON name. */
function decodeField(reader: WireReader, spec: Exclude<FieldSpec, { type: 'ignore' }>, target: Record<string, unknown>): void {
  switch (spec.type) {
    case 'message': {
      if (spec.repeated) {
        listAt(target, spec.name).push(decodeMessage(reader.readBytes(), spec.schema));
      } else {
        // A message field seen twice merges, as Go's generated Unmarshal does.
        decodeMessage(reader.readBytes(), spec.schema, objectAt(target, spec.name));
      }
      return;
    }
    case 'map': {
      const [key, value] = decodeMapEntry(reader.readBytes(), spec.values);
      setOwn(objectAt(target, spec.name), key, value);
      return;
    }
    case 'time': {
      const stamp = timeOf(reader.readBytes());
      if (stamp === undefined) delete target[spec.name];
      else target[spec.name] = stamp;
      return;
    }
    default: {
      const value = readScalar(reader, spec.type);
      if (spec.repeated) listAt(target, spec.name).push(value);
      else if (spec.keepZero || !isZero(value)) target[spec.name] = value;
      else delete target[spec.name];
    }
  }
}

/** readScalar reads one scalar value in its JSON form. */
function readScalar(reader: WireReader, type: ScalarType): string | number | boolean {
  switch (type) {
    case 'string':
      return reader.readString();
    case 'bytes':
      // JSON carries []byte as standard base64, so bytes are kept in that form.
      return Buffer.from(reader.readBytes()).toString('base64');
    case 'bool':
      return reader.readBool();
    case 'int32':
      return reader.readInt32();
    case 'int64':
      return reader.readInt64();
  }
}

/** decodeMapEntry reads a map entry message {key=1, value=2}; a missing key or value is empty. */
function decodeMapEntry(bytes: Uint8Array, values: 'string' | 'bytes'): [string, string] {
  const reader = new WireReader(bytes);
  let key = '';
  let value = '';
  while (!reader.done) {
    const tag = reader.readTag();
    if ((tag.field === 1 || tag.field === 2) && tag.wireType !== WIRE_TYPE.lengthDelimited) {
      throw badProtobuf(`map entry field ${tag.field} has wire type ${tag.wireType}, want ${WIRE_TYPE.lengthDelimited}`);
    }
    if (tag.field === 1) key = reader.readString();
    else if (tag.field === 2) value = String(readScalar(reader, values));
    else reader.skip(tag);
  }
  return [key, value];
}

/** timeOf renders a meta/v1 Time as RFC3339 in UTC to the second, or undefined for the zero time. */
function timeOf(bytes: Uint8Array): string | undefined {
  const { seconds = 0, nanos = 0 } = decodeMessage(bytes, TIMESTAMP_SCHEMA) as { seconds?: number; nanos?: number };
  // Go's Time.Unmarshal reads an empty message, or 0 seconds and 0 nanos, as the zero time, which JSON leaves out.
  if (seconds === 0 && nanos === 0) return undefined;
  if (seconds < MIN_RFC3339_SECONDS || seconds > MAX_RFC3339_SECONDS) {
    throw badProtobuf(`timestamp ${seconds} is outside the years 0001 to 9999`);
  }
  // metav1.Time marshals to JSON with second precision, so nanos are dropped.
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** expectWireType rejects a known field whose wire type does not match its schema type. */
function expectWireType(tag: FieldTag, spec: Exclude<FieldSpec, { type: 'ignore' }>): void {
  const want: WireType = spec.type === 'bool' || spec.type === 'int32' || spec.type === 'int64' ? WIRE_TYPE.varint : WIRE_TYPE.lengthDelimited;
  if (tag.wireType !== want) {
    throw badProtobuf(`field ${spec.name} (${tag.field}) has wire type ${tag.wireType}, want ${want}`);
  }
}

/** isZero tells whether a scalar is its type's zero value, which omitempty drops. */
function isZero(value: string | number | boolean): boolean {
  return value === '' || value === 0 || value === false;
}

/** objectAt returns the object under key in target, creating it when absent. */
function objectAt(target: Record<string, unknown>, key: string): Record<string, unknown> {
  const existing = target[key];
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) return existing as Record<string, unknown>;
  const created: Record<string, unknown> = {};
  target[key] = created;
  return created;
}

/** listAt returns the array under key in target, creating it when absent. */
function listAt(target: Record<string, unknown>, key: string): unknown[] {
  const existing = target[key];
  if (Array.isArray(existing)) return existing;
  const created: unknown[] = [];
  target[key] = created;
  return created;
}
