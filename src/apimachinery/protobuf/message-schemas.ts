// The Kubernetes protobuf messages cachegate can decode, written as data: a message is a table
// from field number to JSON name and type, so supporting another kind is one table entry.
// Field numbers are those of k8s.io/api and k8s.io/apimachinery generated.proto.
//
// Kubernetes' generated marshallers always write non-pointer scalar fields, even when empty
// (kubectl sends generateName "" and generation 0), while the JSON form drops them through
// omitempty. So a decoded zero scalar is left out unless the field sets keepZero: fields that
// are pointers in Go (where 0 or false is a real value) or that lack omitempty.

/** ScalarType is a protobuf scalar cachegate reads; bytes become base64 strings, as in JSON. */
export type ScalarType = 'string' | 'bytes' | 'bool' | 'int32' | 'int64';

/** FieldSpec says how one field is read and under which JSON name it is kept. */
export type FieldSpec =
  | { readonly name: string; readonly type: ScalarType; readonly repeated?: true; readonly keepZero?: true }
  | { readonly name: string; readonly type: 'message'; readonly schema: MessageSchema; readonly repeated?: true }
  | { readonly name: string; readonly type: 'map'; readonly values: 'string' | 'bytes' }
  | { readonly name: string; readonly type: 'time' }
  | { readonly name: string; readonly type: 'ignore' };

/** MessageSchema maps field numbers to their specs; numbers not listed are skipped. */
export type MessageSchema = Readonly<Record<number, FieldSpec>>;

/** KindKey is how a schema is looked up: `${apiVersion}/${kind}` from the envelope's TypeMeta. */
export type KindKey = `${string}/${string}`;

/** TYPE_META_SCHEMA is runtime.TypeMeta, which names the kind inside the envelope. */
export const TYPE_META_SCHEMA: MessageSchema = {
  1: { name: 'apiVersion', type: 'string' },
  2: { name: 'kind', type: 'string' },
};

// runtime.Unknown is read by hand rather than through a schema because raw must stay bytes, to
// be decoded a second time with the schema its TypeMeta selects.
/** UNKNOWN_FIELDS numbers the fields of runtime.Unknown, the envelope after the `k8s\0` magic bytes. */
export const UNKNOWN_FIELDS = Object.freeze({ typeMeta: 1, raw: 2, contentEncoding: 3, contentType: 4 } as const);

/** TIMESTAMP_SCHEMA is the wire form of meta/v1 Time; both fields count even when zero. */
export const TIMESTAMP_SCHEMA: MessageSchema = {
  1: { name: 'seconds', type: 'int64', keepZero: true },
  2: { name: 'nanos', type: 'int32', keepZero: true },
};

// OwnerReference's identifying fields have no omitempty, so JSON always carries them.
const OWNER_REFERENCE: MessageSchema = {
  1: { name: 'kind', type: 'string', keepZero: true },
  3: { name: 'name', type: 'string', keepZero: true },
  4: { name: 'uid', type: 'string', keepZero: true },
  5: { name: 'apiVersion', type: 'string', keepZero: true },
  6: { name: 'controller', type: 'bool', keepZero: true },
  7: { name: 'blockOwnerDeletion', type: 'bool', keepZero: true },
};

const OBJECT_META: MessageSchema = {
  1: { name: 'name', type: 'string' },
  2: { name: 'generateName', type: 'string' },
  3: { name: 'namespace', type: 'string' },
  4: { name: 'selfLink', type: 'string' },
  5: { name: 'uid', type: 'string' },
  6: { name: 'resourceVersion', type: 'string' },
  7: { name: 'generation', type: 'int64' },
  8: { name: 'creationTimestamp', type: 'time' },
  9: { name: 'deletionTimestamp', type: 'time' },
  10: { name: 'deletionGracePeriodSeconds', type: 'int64', keepZero: true },
  11: { name: 'labels', type: 'map', values: 'string' },
  12: { name: 'annotations', type: 'map', values: 'string' },
  13: { name: 'ownerReferences', type: 'message', schema: OWNER_REFERENCE, repeated: true },
  14: { name: 'finalizers', type: 'string', repeated: true },
  // managedFields is server-side apply bookkeeping that cachegate neither stores nor serves.
  17: { name: 'managedFields', type: 'ignore' },
};

const NAMESPACE: MessageSchema = {
  1: { name: 'metadata', type: 'message', schema: OBJECT_META },
  2: { name: 'spec', type: 'message', schema: { 1: { name: 'finalizers', type: 'string', repeated: true } } },
  3: { name: 'status', type: 'message', schema: { 1: { name: 'phase', type: 'string' } } },
};

const CONFIG_MAP: MessageSchema = {
  1: { name: 'metadata', type: 'message', schema: OBJECT_META },
  2: { name: 'data', type: 'map', values: 'string' },
  3: { name: 'binaryData', type: 'map', values: 'bytes' },
  4: { name: 'immutable', type: 'bool', keepZero: true },
};

const SECRET: MessageSchema = {
  1: { name: 'metadata', type: 'message', schema: OBJECT_META },
  2: { name: 'data', type: 'map', values: 'bytes' },
  3: { name: 'type', type: 'string' },
  4: { name: 'stringData', type: 'map', values: 'string' },
  5: { name: 'immutable', type: 'bool', keepZero: true },
};

// Every scalar of DeleteOptions and Preconditions is a pointer in Go: gracePeriodSeconds 0 means "now".
const PRECONDITIONS: MessageSchema = {
  1: { name: 'uid', type: 'string', keepZero: true },
  2: { name: 'resourceVersion', type: 'string', keepZero: true },
};

const DELETE_OPTIONS: MessageSchema = {
  1: { name: 'gracePeriodSeconds', type: 'int64', keepZero: true },
  2: { name: 'preconditions', type: 'message', schema: PRECONDITIONS },
  3: { name: 'orphanDependents', type: 'bool', keepZero: true },
  4: { name: 'propagationPolicy', type: 'string', keepZero: true },
  5: { name: 'dryRun', type: 'string', repeated: true },
  6: { name: 'ignoreStoreReadErrorWithClusterBreakingPotential', type: 'bool', keepZero: true },
};

// kubectl auth can-i (with --list) and kubectl auth whoami send these; fieldSelector and labelSelector narrow a
// review in ways cachegate's access rules never depend on.
const RESOURCE_ATTRIBUTES: MessageSchema = {
  1: { name: 'namespace', type: 'string' },
  2: { name: 'verb', type: 'string' },
  3: { name: 'group', type: 'string' },
  4: { name: 'version', type: 'string' },
  5: { name: 'resource', type: 'string' },
  6: { name: 'subresource', type: 'string' },
  7: { name: 'name', type: 'string' },
  8: { name: 'fieldSelector', type: 'ignore' },
  9: { name: 'labelSelector', type: 'ignore' },
};

const SELF_SUBJECT_ACCESS_REVIEW: MessageSchema = {
  1: { name: 'metadata', type: 'message', schema: OBJECT_META },
  2: {
    name: 'spec', type: 'message', schema: {
      1: { name: 'resourceAttributes', type: 'message', schema: RESOURCE_ATTRIBUTES },
      2: { name: 'nonResourceAttributes', type: 'message', schema: { 1: { name: 'path', type: 'string' }, 2: { name: 'verb', type: 'string' } } },
    },
  },
};

const SELF_SUBJECT_RULES_REVIEW: MessageSchema = {
  1: { name: 'metadata', type: 'message', schema: OBJECT_META },
  2: { name: 'spec', type: 'message', schema: { 1: { name: 'namespace', type: 'string' } } },
};

const SELF_SUBJECT_REVIEW: MessageSchema = {
  1: { name: 'metadata', type: 'message', schema: OBJECT_META },
};

/** KIND_SCHEMAS is every kind accepted as protobuf, keyed by `${apiVersion}/${kind}`. */
export const KIND_SCHEMAS: Readonly<Record<KindKey, MessageSchema>> = Object.freeze({
  'v1/Namespace': NAMESPACE,
  'v1/ConfigMap': CONFIG_MAP,
  'v1/Secret': SECRET,
  // DeleteOptions is registered in every group version; core clients send it as v1.
  'meta.k8s.io/v1/DeleteOptions': DELETE_OPTIONS,
  'v1/DeleteOptions': DELETE_OPTIONS,
  'authorization.k8s.io/v1/SelfSubjectAccessReview': SELF_SUBJECT_ACCESS_REVIEW,
  'authorization.k8s.io/v1/SelfSubjectRulesReview': SELF_SUBJECT_RULES_REVIEW,
  'authentication.k8s.io/v1/SelfSubjectReview': SELF_SUBJECT_REVIEW,
});
