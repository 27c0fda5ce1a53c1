// The decoder check answers what Go's encoding/json (as kube-apiserver uses it) answers for a value
// of the wrong type, a []byte that is not standard base64, and a metav1.Time that is not RFC 3339.

import { describe, expect, it } from 'vitest';
import { base64ErrorOffset } from '../../../src/apimachinery/go-base64.js';
import { goDecodeError } from '../../../src/apimachinery/go-json-decode.js';
import { GO_BYTES, GO_INT32, GO_STRING, goMap, goNamedString, goSlice, goStruct } from '../../../src/apimachinery/go-json-type.js';
import { goObjectType } from '../../../src/apimachinery/object-meta-go-type.js';
import { goTimeError } from '../../../src/apimachinery/go-time.js';
import { numbered } from './numbered.js';

const SPEC = goStruct('v1', 'WidgetSpec', { names: goSlice(goNamedString('v1.Name')), size: GO_INT32, blob: GO_BYTES });
const WIDGET = goObjectType('v1', 'Widget', { data: goMap(GO_STRING), spec: SPEC });
const NOT_TIME = (value: string, rest: string, elem: string): string =>
  `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(elem)}`;

describe('goDecodeError', () => {
  it.each(numbered<{ name: string; value: unknown; want: string | undefined }>([
    { name: 'valid object, unknown fields and nulls pass', value: { metadata: { name: 'a', labels: null }, data: { a: 'b' }, spec: { size: 3, names: ['x'], blob: 'eA==' }, extra: 1 }, want: undefined },
    { name: 'map value of the wrong type names the map field', value: { data: { a: { b: 1 } } }, want: 'json: cannot unmarshal object into Go struct field Widget.data of type string' },
    { name: 'map of the wrong type', value: { data: 'x' }, want: 'json: cannot unmarshal string into Go struct field Widget.data of type map[string]string' },
    { name: 'nested struct field: innermost struct name, path from the root', value: { spec: { names: 'x' } }, want: 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.names of type []v1.Name' },
    { name: 'list item of the wrong type: no index in the path', value: { spec: { names: ['a', 2] } }, want: 'json: cannot unmarshal number into Go struct field WidgetSpec.spec.names of type v1.Name' },
    { name: 'a fraction where an int32 goes', value: { spec: { size: 1.5 } }, want: 'json: cannot unmarshal number 1.5 into Go struct field WidgetSpec.spec.size of type int32' },
    { name: 'an int32 out of range', value: { spec: { size: 2 ** 31 } }, want: 'json: cannot unmarshal number 2147483648 into Go struct field WidgetSpec.spec.size of type int32' },
    { name: 'a bool where a struct goes', value: { spec: true }, want: 'json: cannot unmarshal bool into Go struct field Widget.spec of type v1.WidgetSpec' },
    { name: '[]byte that is not base64', value: { spec: { blob: 'abc' } }, want: 'illegal base64 data at input byte 0' },
    { name: '[]byte that is a number', value: { spec: { blob: 7 } }, want: 'json: cannot unmarshal number into Go struct field WidgetSpec.spec.blob of type []uint8' },
    { name: 'the first mismatch in document order is reported', value: { spec: { size: 'x' }, data: 1 }, want: 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.size of type int32' },
    { name: 'ObjectMeta label value', value: { metadata: { labels: { a: true } } }, want: 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string' },
    { name: 'ObjectMeta uid', value: { metadata: { uid: 5 } }, want: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID' },
    { name: 'ObjectMeta generation that is a string', value: { metadata: { generation: '1' } }, want: 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64' },
    { name: 'owner reference field', value: { metadata: { ownerReferences: [{ controller: 'yes' }] } }, want: 'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool' },
    { name: 'a timestamp that is a number fails Time\'s own string decode', value: { metadata: { creationTimestamp: 5 } }, want: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string' },
    { name: 'a timestamp that does not parse', value: { metadata: { deletionTimestamp: '2026-13-01T00:00:00Z' } }, want: 'parsing time "2026-13-01T00:00:00Z": month out of range' },
    { name: 'a key that only differs in case is an unknown field (kube decodes case-sensitively)', value: { Data: 5, Spec: 'x' }, want: undefined },
    { name: 'a field named like an Object.prototype member is just unknown', value: { constructor: 5, toString: 'x', metadata: { __proto__: 1 } }, want: undefined },
  ]))('case $n: $name', ({ value, want }) => {
    expect(goDecodeError(value, WIDGET)).toBe(want);
  });
});

describe('base64ErrorOffset (Go base64.StdEncoding)', () => {
  it.each(numbered<{ text: string; want: number | undefined }>([
    { text: '', want: undefined },
    { text: 'eA==', want: undefined },
    { text: 'eHl6', want: undefined },
    { text: 'eH\nl6\r\n', want: undefined },
    { text: 'c2VjcmV0!', want: 8 },
    { text: 'not base64!', want: 3 },
    { text: 'abc', want: 0 },
    { text: 'eA=', want: 3 },
    { text: 'e===', want: 1 },
    { text: 'eA==eA==', want: 4 },
    { text: 'eHk=x', want: 4 },
    { text: 'ü', want: 0 },
  ]))('case $n: "$text" → $want', ({ text, want }) => {
    expect(base64ErrorOffset(text)).toBe(want);
  });
});

describe('goTimeError (time.Parse with time.RFC3339)', () => {
  it.each(numbered<{ value: string; want: string | undefined }>([
    { value: '2026-01-02T03:04:05Z', want: undefined },
    { value: '2026-01-02T03:04:05.123456Z', want: undefined },
    { value: '2026-01-02T03:04:05+02:00', want: undefined },
    { value: '2024-02-29T00:00:00Z', want: undefined },
    { value: 'yesterday', want: NOT_TIME('yesterday', 'yesterday', '2006') },
    { value: '2026-1-02T03:04:05Z', want: NOT_TIME('2026-1-02T03:04:05Z', '1-02T03:04:05Z', '01') },
    { value: '2026-01-02 03:04:05Z', want: NOT_TIME('2026-01-02 03:04:05Z', ' 03:04:05Z', 'T') },
    { value: '2026-01-02T03:04:05', want: NOT_TIME('2026-01-02T03:04:05', '', 'Z07:00') },
    { value: '2026-01-02T24:00:00Z', want: 'parsing time "2026-01-02T24:00:00Z": hour out of range' },
    { value: '2025-02-29T00:00:00Z', want: 'parsing time "2025-02-29T00:00:00Z": day out of range' },
    { value: '2026-01-02T03:04:05Zjunk', want: 'parsing time "2026-01-02T03:04:05Zjunk": extra text: "junk"' },
  ]))('case $n: "$value"', ({ value, want }) => {
    expect(goTimeError(value)).toBe(want);
  });
});
