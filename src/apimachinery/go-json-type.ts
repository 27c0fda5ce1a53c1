// A description of the Go types the Kubernetes API server decodes request bodies into, enough to
// refuse what its JSON decoder refuses and to name the field as it does:
// `json: cannot unmarshal object into Go struct field ConfigMap.data of type string`.
// Only the fields a type declares are checked; unknown fields pass (kube only warns about them).

/** GoType is one Go type as encoding/json sees it. */
export type GoType =
  /** name is the Go type's printed name: `string`, `types.UID`, `v1.FinalizerName`. */
  | { readonly kind: 'string'; readonly name: string }
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly bits: 32 | 64 }
  /** bytes is []byte: a standard base64 string. */
  | { readonly kind: 'bytes' }
  /** time is metav1.Time: an RFC 3339 string (its own UnmarshalJSON). */
  | { readonly kind: 'time' }
  /** raw accepts any JSON (runtime.RawExtension, FieldsV1, a schema checked elsewhere). */
  | { readonly kind: 'raw' }
  | { readonly kind: 'map'; readonly of: GoType }
  | { readonly kind: 'slice'; readonly of: GoType }
  /** struct is named `<pkg>.<name>` in messages; fields are keyed by their JSON names. */
  | { readonly kind: 'struct'; readonly pkg: string; readonly name: string; readonly fields: Readonly<Record<string, GoType>> };

/** GoStruct is the struct member of GoType. */
export type GoStruct = Extract<GoType, { kind: 'struct' }>;

/** GO_STRING is Go's string. */
export const GO_STRING: GoType = Object.freeze({ kind: 'string', name: 'string' });
/** GO_BOOL is Go's bool. */
export const GO_BOOL: GoType = Object.freeze({ kind: 'bool' });
/** GO_INT64 is Go's int64. */
export const GO_INT64: GoType = Object.freeze({ kind: 'int', bits: 64 });
/** GO_INT32 is Go's int32. */
export const GO_INT32: GoType = Object.freeze({ kind: 'int', bits: 32 });
/** GO_BYTES is Go's []byte. */
export const GO_BYTES: GoType = Object.freeze({ kind: 'bytes' });
/** GO_TIME is metav1.Time. */
export const GO_TIME: GoType = Object.freeze({ kind: 'time' });
/** GO_RAW is any JSON value. */
export const GO_RAW: GoType = Object.freeze({ kind: 'raw' });

/** goNamedString is a named string type such as `v1.FinalizerName`. */
export function goNamedString(name: string): GoType {
  return Object.freeze({ kind: 'string', name });
}

/** goMap is map[string]of. */
export function goMap(of: GoType): GoType {
  return Object.freeze({ kind: 'map', of });
}

/** goSlice is []of. */
export function goSlice(of: GoType): GoType {
  return Object.freeze({ kind: 'slice', of });
}

/** goStruct is a struct type `<pkg>.<name>` with the given JSON fields. */
export function goStruct(pkg: string, name: string, fields: Record<string, GoType>): GoStruct {
  return Object.freeze({ kind: 'struct', pkg, name, fields: Object.freeze({ ...fields }) });
}

/** goTypeName prints a type as Go's reflect does in decode errors: `map[string]string`, `[]uint8`, `v1.ObjectMeta`. */
export function goTypeName(type: GoType): string {
  switch (type.kind) {
    case 'string': return type.name;
    case 'bool': return 'bool';
    case 'int': return `int${type.bits}`;
    case 'bytes': return '[]uint8';
    case 'time': return 'v1.Time';
    case 'raw': return 'interface {}';
    case 'map': return `map[string]${goTypeName(type.of)}`;
    case 'slice': return `[]${goTypeName(type.of)}`;
    case 'struct': return `${type.pkg}.${type.name}`;
  }
}
