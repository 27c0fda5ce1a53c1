// A cursor over protobuf wire-format bytes. Kubernetes clients (kubectl among them) send some
// request bodies as protobuf; this reader knows only the wire format, not any message, so the
// schema-driven decoder on top of it stays a table lookup. Every malformed input becomes a
// BadRequest, because a request body is the client's mistake, never ours.

import { AppError } from '../../errors.js';

/** WireType is the three-bit encoding tag that says how a field's value is laid out. */
export type WireType = 0 | 1 | 2 | 3 | 4 | 5;

/** WIRE_TYPE names the wire types, so callers compare against names rather than digits. */
export const WIRE_TYPE = Object.freeze({
  varint: 0,
  fixed64: 1,
  lengthDelimited: 2,
  startGroup: 3,
  endGroup: 4,
  fixed32: 5,
} as const);

/** FieldTag is a decoded field key: which field follows and how it is encoded. */
export interface FieldTag {
  readonly field: number;
  readonly wireType: WireType;
}

// A varint never needs more than ten bytes for 64 bits; an eleventh continuation is malformed.
const MAX_VARINT_BYTES = 10;
// Groups nest recursively when skipped; a bound keeps a hostile body from exhausting the stack.
const MAX_GROUP_DEPTH = 64;

/** badProtobuf builds the BadRequest every decoding failure is reported as. */
export function badProtobuf(what: string): AppError {
  return new AppError('BadRequest', `error decoding protobuf body: ${what}`);
}

/** WireReader reads protobuf wire-format values from a byte array, front to back. */
export class WireReader {
  private readonly bytes: Uint8Array;
  private pos = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** done tells whether every byte has been consumed. */
  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  /** readVarintBig reads an unsigned varint of up to 64 bits as a bigint. */
  readVarintBig(): bigint {
    let result = 0n;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      const byte = this.nextByte('varint');
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw badProtobuf('varint is longer than 10 bytes');
  }

  /** readVarint reads an unsigned varint that must fit a safe integer (lengths, tags, enums). */
  readVarint(): number {
    // Fast path: up to four bytes (28 bits) fit a number without bigint arithmetic.
    let result = 0;
    const start = this.pos;
    for (let i = 0; i < 4; i++) {
      const byte = this.nextByte('varint');
      result += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) return result;
    }
    this.pos = start;
    const big = this.readVarintBig();
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw badProtobuf('varint is too large');
    return Number(big);
  }

  /** readInt64 reads a two's-complement int64 varint (negative values take ten bytes) as a number. */
  readInt64(): number {
    const value = BigInt.asIntN(64, this.readVarintBig());
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw badProtobuf(`int64 value ${value} is outside the safe integer range`);
    }
    return Number(value);
  }

  /** readInt32 reads an int32 varint; negative values are sign-extended to ten bytes on the wire. */
  readInt32(): number {
    return Number(BigInt.asIntN(32, this.readVarintBig()));
  }

  /** readBool reads a varint as a boolean, where any non-zero value means true. */
  readBool(): boolean {
    return this.readVarintBig() !== 0n;
  }

  /** readBytes reads a length-delimited value; the result shares memory with the input. */
  readBytes(): Uint8Array {
    const length = this.readVarint();
    if (length > this.bytes.length - this.pos) {
      throw badProtobuf(`length ${length} runs past the end of the input`);
    }
    const value = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return value;
  }

  /** readString reads a length-delimited UTF-8 string; invalid sequences become U+FFFD, as Go keeps them opaque. */
  readString(): string {
    return new TextDecoder().decode(this.readBytes());
  }

  /** readTag reads a field key and checks its field number and wire type. */
  readTag(): FieldTag {
    const key = this.readVarint();
    const field = Math.floor(key / 8);
    const wireType = key % 8;
    if (field === 0 || field > 0x1fffffff) throw badProtobuf(`invalid field number ${field}`);
    if (wireType > 5) throw badProtobuf(`invalid wire type ${wireType} for field ${field}`);
    return { field, wireType: wireType as WireType };
  }

  /** skip steps over the value of a field that the schema does not know. */
  skip(tag: FieldTag, depth = 0): void {
    switch (tag.wireType) {
      case WIRE_TYPE.varint:
        this.readVarintBig();
        return;
      case WIRE_TYPE.fixed64:
        this.advance(8, 'fixed64');
        return;
      case WIRE_TYPE.lengthDelimited:
        this.readBytes();
        return;
      case WIRE_TYPE.fixed32:
        this.advance(4, 'fixed32');
        return;
      case WIRE_TYPE.startGroup:
        this.skipGroup(tag.field, depth + 1);
        return;
      case WIRE_TYPE.endGroup:
        throw badProtobuf(`unexpected end of group for field ${tag.field}`);
    }
  }

  /** skipGroup steps over a deprecated group up to its matching end tag. */
  private skipGroup(field: number, depth: number): void {
    if (depth > MAX_GROUP_DEPTH) throw badProtobuf('groups are nested too deeply');
    for (;;) {
      if (this.done) throw badProtobuf(`group for field ${field} is not closed`);
      const inner = this.readTag();
      if (inner.wireType === WIRE_TYPE.endGroup) {
        if (inner.field !== field) throw badProtobuf(`end group ${inner.field} does not match start group ${field}`);
        return;
      }
      this.skip(inner, depth);
    }
  }

  /** advance moves past a fixed-width value, failing if the input is shorter. */
  private advance(count: number, what: string): void {
    if (count > this.bytes.length - this.pos) throw badProtobuf(`${what} value is truncated`);
    this.pos += count;
  }

  /** nextByte returns the next byte, failing if the input has run out. */
  private nextByte(what: string): number {
    const byte = this.bytes[this.pos];
    if (byte === undefined) throw badProtobuf(`${what} is truncated`);
    this.pos += 1;
    return byte;
  }
}
