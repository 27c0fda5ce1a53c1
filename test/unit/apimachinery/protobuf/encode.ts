// A tiny protobuf wire-format encoder for building test bodies. It lives only with the tests:
// cachegate never encodes protobuf (responses stay JSON). Every helper returns the bytes of one
// whole field (key + value), so a message is just the concatenation of its fields.

/** MAGIC is the `k8s\0` prefix of every Kubernetes protobuf body. */
export const MAGIC: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

/** varintBytes encodes an unsigned 64-bit value; negatives are taken as two's complement, as int64 is. */
export function varintBytes(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return out;
}

/** key encodes a field key from its number and wire type. */
export function key(field: number, wireType: number): number[] {
  return varintBytes(BigInt(field) * 8n + BigInt(wireType));
}

/** concat joins byte sequences into one array. */
export function concat(...parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) out.push(...part);
  return Uint8Array.from(out);
}

/** pb builds single encoded fields, one helper per kind of value. */
export const pb = Object.freeze({
  varint: (field: number, value: number | bigint): Uint8Array => concat(key(field, 0), varintBytes(value)),
  bool: (field: number, value: boolean): Uint8Array => concat(key(field, 0), [value ? 1 : 0]),
  bytes: (field: number, value: Uint8Array | readonly number[]): Uint8Array => concat(key(field, 2), varintBytes(value.length), value),
  string: (field: number, value: string): Uint8Array => pb.bytes(field, new TextEncoder().encode(value)),
  message: (field: number, ...fields: Uint8Array[]): Uint8Array => pb.bytes(field, concat(...fields)),
  fixed64: (field: number): Uint8Array => concat(key(field, 1), [1, 2, 3, 4, 5, 6, 7, 8]),
  fixed32: (field: number): Uint8Array => concat(key(field, 5), [1, 2, 3, 4]),
  group: (field: number, ...fields: Uint8Array[]): Uint8Array => concat(key(field, 3), ...fields, key(field, 4)),
  /** entry is one map<string, string|bytes> entry: a message {key=1, value=2}. */
  entry: (field: number, k: string, v: string | Uint8Array): Uint8Array =>
    pb.message(field, pb.string(1, k), typeof v === 'string' ? pb.string(2, v) : pb.bytes(2, v)),
  /** time is a meta/v1 Time message {seconds=1, nanos=2}. */
  time: (field: number, seconds: number, nanos = 0): Uint8Array => pb.message(field, pb.varint(1, seconds), pb.varint(2, nanos)),
});

/** kubeBody wraps an encoded object in the `k8s\0` + runtime.Unknown envelope, as kubectl sends it. */
export function kubeBody(apiVersion: string, kind: string, ...objectFields: Uint8Array[]): Uint8Array {
  return concat(
    MAGIC,
    pb.message(1, pb.string(1, apiVersion), pb.string(2, kind)),
    pb.message(2, ...objectFields),
    pb.string(3, ''),
    pb.string(4, ''),
  );
}

/** fromBase64 turns a base64 fixture back into bytes. */
export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}
