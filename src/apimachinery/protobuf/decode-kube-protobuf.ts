// Decodes an `application/vnd.kubernetes.protobuf` request body into the JSON object the same
// request would carry as `application/json`. kubectl sends built-in kinds this way on create,
// replace and delete; responses stay JSON, which every client accepts, so only decoding exists.
//
// The body is the magic `k8s\0` followed by a runtime.Unknown envelope whose TypeMeta names
// the kind and whose raw field holds the encoded object.

import { AppError } from '../../errors.js';
import { decodeMessage } from './decode-message.js';
import { KIND_SCHEMAS, TYPE_META_SCHEMA, UNKNOWN_FIELDS } from './message-schemas.js';
import type { KindKey, MessageSchema } from './message-schemas.js';
import { WIRE_TYPE, WireReader, badProtobuf } from './wire-reader.js';

// The four bytes 'k', '8', 's', NUL that start every Kubernetes protobuf body.
const MAGIC = [0x6b, 0x38, 0x73, 0x00] as const;

/** decodeKubeProtobuf decodes a Kubernetes protobuf body into its JSON form with apiVersion and kind set. */
export function decodeKubeProtobuf(body: Uint8Array): Record<string, unknown> {
  if (body.length < MAGIC.length || MAGIC.some((byte, i) => body[i] !== byte)) {
    throw badProtobuf('body does not start with the Kubernetes protobuf prefix "k8s\\x00"');
  }
  const { apiVersion, kind, raw } = readEnvelope(body.subarray(MAGIC.length));
  if (kind === '') throw badProtobuf('the envelope does not name a kind');
  const schema = schemaFor(`${apiVersion}/${kind}`);
  if (schema === undefined) {
    throw new AppError('UnsupportedMediaType', `protobuf is not supported for ${apiVersion}/${kind}; send application/json`);
  }
  return { apiVersion, kind, ...decodeMessage(raw, schema) };
}

/** Envelope is what cachegate needs of runtime.Unknown: the TypeMeta and the raw object bytes. */
interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
}

/** readEnvelope reads runtime.Unknown; contentEncoding and contentType are ignored, as the API server does. */
function readEnvelope(bytes: Uint8Array): Envelope {
  const reader = new WireReader(bytes);
  const typeMeta: Record<string, unknown> = {};
  let raw: Uint8Array = new Uint8Array(0);
  while (!reader.done) {
    const tag = reader.readTag();
    const isKnown = tag.field === UNKNOWN_FIELDS.typeMeta || tag.field === UNKNOWN_FIELDS.raw;
    if (!isKnown) {
      reader.skip(tag);
      continue;
    }
    if (tag.wireType !== WIRE_TYPE.lengthDelimited) {
      throw badProtobuf(`envelope field ${tag.field} has wire type ${tag.wireType}, want ${WIRE_TYPE.lengthDelimited}`);
    }
    if (tag.field === UNKNOWN_FIELDS.typeMeta) decodeMessage(reader.readBytes(), TYPE_META_SCHEMA, typeMeta);
    else raw = reader.readBytes();
  }
  const { apiVersion, kind } = typeMeta;
  return { apiVersion: typeof apiVersion === 'string' ? apiVersion : '', kind: typeof kind === 'string' ? kind : '', raw };
}

/** schemaFor looks a kind up by own key only, so names like `constructor` never match. */
function schemaFor(key: KindKey): MessageSchema | undefined {
  return Object.hasOwn(KIND_SCHEMAS, key) ? KIND_SCHEMAS[key] : undefined;
}
