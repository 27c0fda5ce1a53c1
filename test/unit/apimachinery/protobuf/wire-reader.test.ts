import { describe, it, expect } from 'vitest';
import { AppError } from '../../../../src/errors.js';
import { WireReader } from '../../../../src/apimachinery/protobuf/wire-reader.js';
import { numbered } from '../numbered.js';
import { concat, key, pb, varintBytes } from './encode.js';

const reader = (bytes: readonly number[] | Uint8Array): WireReader => new WireReader(Uint8Array.from(bytes));

describe('WireReader numbers', () => {
  const cases = numbered([
    { name: 'one-byte varint', bytes: [0x05], read: (r: WireReader) => r.readVarint(), want: 5 },
    { name: 'two-byte varint 300', bytes: [0xac, 0x02], read: (r: WireReader) => r.readVarint(), want: 300 },
    { name: 'largest safe varint', bytes: varintBytes(Number.MAX_SAFE_INTEGER), read: (r: WireReader) => r.readVarint(), want: Number.MAX_SAFE_INTEGER },
    { name: 'five-byte varint past the fast path', bytes: varintBytes(2 ** 32), read: (r: WireReader) => r.readVarint(), want: 2 ** 32 },
    { name: 'full 64-bit varint as bigint', bytes: varintBytes(2n ** 64n - 1n), read: (r: WireReader) => r.readVarintBig(), want: 2n ** 64n - 1n },
    { name: 'int64 -1 (ten bytes)', bytes: varintBytes(-1), read: (r: WireReader) => r.readInt64(), want: -1 },
    { name: 'int64 smallest safe', bytes: varintBytes(Number.MIN_SAFE_INTEGER), read: (r: WireReader) => r.readInt64(), want: Number.MIN_SAFE_INTEGER },
    { name: 'int64 positive', bytes: varintBytes(2 ** 40), read: (r: WireReader) => r.readInt64(), want: 2 ** 40 },
    { name: 'int32 -2 sign-extended', bytes: varintBytes(-2), read: (r: WireReader) => r.readInt32(), want: -2 },
    { name: 'bool true from any non-zero', bytes: [0x02], read: (r: WireReader) => r.readBool(), want: true },
    { name: 'bool false', bytes: [0x00], read: (r: WireReader) => r.readBool(), want: false },
    { name: 'string', bytes: [0x02, 0x68, 0x69], read: (r: WireReader) => r.readString(), want: 'hi' },
    { name: 'empty bytes', bytes: [0x00], read: (r: WireReader) => r.readBytes(), want: new Uint8Array(0) },
    { name: 'tag', bytes: key(17, 2), read: (r: WireReader) => r.readTag(), want: { field: 17, wireType: 2 } },
    { name: 'tag with the largest field number', bytes: key(0x1fffffff, 5), read: (r: WireReader) => r.readTag(), want: { field: 0x1fffffff, wireType: 5 } },
  ]);

  it.each(cases)('case $n: $name', ({ bytes, read, want }) => {
    const r = reader(bytes);
    expect(read(r)).toStrictEqual(want);
    expect(r.done).toBe(true);
  });
});

describe('WireReader.skip', () => {
  const cases = numbered([
    { name: 'varint', field: pb.varint(3, -1) },
    { name: 'fixed64', field: pb.fixed64(3) },
    { name: 'length-delimited', field: pb.string(3, 'skip me') },
    { name: 'group with nested group and every wire type', field: pb.group(3, pb.varint(1, 1), pb.fixed64(2), pb.group(4, pb.fixed32(5)), pb.string(6, 'x')) },
    { name: 'fixed32', field: pb.fixed32(3) },
  ]);

  it.each(cases)('case $n: skips a $name field and lands on the next one', ({ field }) => {
    const r = reader(concat(field, pb.varint(1, 7)));
    r.skip(r.readTag());
    expect(r.readTag()).toStrictEqual({ field: 1, wireType: 0 });
    expect(r.readVarint()).toBe(7);
    expect(r.done).toBe(true);
  });
});

describe('WireReader errors', () => {
  const deepGroup = concat(...Array.from({ length: 70 }, () => Uint8Array.from(key(1, 3))));
  const cases = numbered([
    { name: 'empty varint', bytes: [], read: (r: WireReader) => r.readVarint(), message: /varint is truncated/ },
    { name: 'unterminated varint', bytes: [0x80, 0x80], read: (r: WireReader) => r.readVarintBig(), message: /varint is truncated/ },
    { name: 'eleven-byte varint', bytes: [...Array<number>(10).fill(0x80), 0x01], read: (r: WireReader) => r.readVarintBig(), message: /longer than 10 bytes/ },
    { name: 'unsafe length', bytes: varintBytes(2 ** 60), read: (r: WireReader) => r.readVarint(), message: /varint is too large/ },
    { name: 'int64 above the safe range', bytes: varintBytes(2 ** 53), read: (r: WireReader) => r.readInt64(), message: /outside the safe integer range/ },
    { name: 'int64 below the safe range', bytes: varintBytes(-(2n ** 53n)), read: (r: WireReader) => r.readInt64(), message: /outside the safe integer range/ },
    { name: 'bytes longer than the input', bytes: [0x05, 0x01], read: (r: WireReader) => r.readBytes(), message: /length 5 runs past the end/ },
    { name: 'bad wire type', bytes: key(1, 6), read: (r: WireReader) => r.readTag(), message: /invalid wire type 6 for field 1/ },
    { name: 'field number 0', bytes: [0x00], read: (r: WireReader) => r.readTag(), message: /invalid field number 0/ },
    { name: 'field number too large', bytes: varintBytes(2 ** 29 * 8), read: (r: WireReader) => r.readTag(), message: /invalid field number/ },
    { name: 'groups nested too deeply', bytes: deepGroup, read: (r: WireReader) => r.skip(r.readTag()), message: /nested too deeply/ },
  ]);

  it.each(cases)('case $n: $name', ({ bytes, read, message }) => {
    let thrown: unknown;
    try {
      read(reader(bytes));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('BadRequest');
    expect((thrown as AppError).message).toMatch(/^error decoding protobuf body: /);
    expect((thrown as AppError).message).toMatch(message);
  });
});
