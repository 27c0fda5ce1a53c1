// The Go types of metav1.TypeMeta and metav1.ObjectMeta, shared by every kind's decoder check.

import type { GoStruct, GoType } from './go-json-type.js';
import { GO_BOOL, GO_INT64, GO_RAW, GO_STRING, GO_TIME, goMap, goNamedString, goSlice, goStruct } from './go-json-type.js';

const UID = goNamedString('types.UID');

const OWNER_REFERENCE = goStruct('v1', 'OwnerReference', {
  apiVersion: GO_STRING, kind: GO_STRING, name: GO_STRING, uid: UID, controller: GO_BOOL, blockOwnerDeletion: GO_BOOL,
});

const MANAGED_FIELDS_ENTRY = goStruct('v1', 'ManagedFieldsEntry', {
  manager: GO_STRING,
  operation: goNamedString('v1.ManagedFieldsOperationType'),
  apiVersion: GO_STRING,
  time: GO_TIME,
  fieldsType: GO_STRING,
  fieldsV1: GO_RAW,
  subresource: GO_STRING,
});

/** OBJECT_META is metav1.ObjectMeta. */
export const OBJECT_META = goStruct('v1', 'ObjectMeta', {
  name: GO_STRING,
  generateName: GO_STRING,
  namespace: GO_STRING,
  selfLink: GO_STRING,
  uid: UID,
  resourceVersion: GO_STRING,
  generation: GO_INT64,
  creationTimestamp: GO_TIME,
  deletionTimestamp: GO_TIME,
  deletionGracePeriodSeconds: GO_INT64,
  labels: goMap(GO_STRING),
  annotations: goMap(GO_STRING),
  ownerReferences: goSlice(OWNER_REFERENCE),
  finalizers: goSlice(GO_STRING),
  managedFields: goSlice(MANAGED_FIELDS_ENTRY),
});

/** goObjectType is a top-level kind `<pkg>.<kind>`: TypeMeta inlined, ObjectMeta, then its own fields. */
export function goObjectType(pkg: string, kind: string, fields: Record<string, GoType> = {}): GoStruct {
  return goStruct(pkg, kind, { apiVersion: GO_STRING, kind: GO_STRING, metadata: OBJECT_META, ...fields });
}
