// A deliberately empty OpenAPI v2 document. `kubectl apply` downloads it (as protobuf) to
// validate and to pick a patch type; knowing no schema, it validates nothing client-side and
// uses JSON merge patch for custom resources, which is what a schemaless server wants.

const PROTOBUF_MEDIA_TYPE = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** openApiV2Json is the empty document as JSON. */
export function openApiV2Json(version: string): Record<string, unknown> {
  return { swagger: '2.0', info: { title: 'cachegate', version }, paths: {}, definitions: {} };
}

/** wantsProtobufOpenApi tells whether a request asks for the gnostic protobuf form. */
export function wantsProtobufOpenApi(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes(PROTOBUF_MEDIA_TYPE);
}

/** OPENAPI_V2_PROTOBUF_TYPE is the media type of the protobuf form. */
export const OPENAPI_V2_PROTOBUF_TYPE = PROTOBUF_MEDIA_TYPE;

/**
 * openApiV2Protobuf encodes the same document as a gnostic openapi_v2.Document: field 1 is
 * `swagger`, field 2 the `info` message (title = 1, version = 2); empty paths and definitions
 * are simply absent.
 */
export function openApiV2Protobuf(version: string): Buffer {
  const info = Buffer.concat([stringField(1, 'cachegate'), stringField(2, version)]);
  return Buffer.concat([stringField(1, '2.0'), bytesField(2, info)]);
}

function stringField(field: number, value: string): Buffer {
  return bytesField(field, Buffer.from(value, 'utf8'));
}

function bytesField(field: number, value: Buffer): Buffer {
  // Every length here is below 128, so a one-byte varint is enough for tag and length.
  return Buffer.concat([Buffer.from([(field << 3) | 2, value.length]), value]);
}
