// The Go types of the core/v1 kinds the embedded source serves (k8s.io/api/core/v1), as far as
// their decoding goes: what kube's JSON decoder refuses in them is refused here too.

import { GO_BOOL, GO_BYTES, GO_STRING, GO_TIME, goMap, goNamedString, goSlice, goStruct } from '../../apimachinery/go-json-type.js';
import { goObjectType } from '../../apimachinery/object-meta-go-type.js';

/** CONFIG_MAP_TYPE is v1.ConfigMap. */
export const CONFIG_MAP_TYPE = goObjectType('v1', 'ConfigMap', {
  immutable: GO_BOOL,
  data: goMap(GO_STRING),
  binaryData: goMap(GO_BYTES),
});

/** SECRET_TYPE is v1.Secret; stringData is write-only and folded into data. */
export const SECRET_TYPE = goObjectType('v1', 'Secret', {
  immutable: GO_BOOL,
  data: goMap(GO_BYTES),
  stringData: goMap(GO_STRING),
  type: goNamedString('v1.SecretType'),
});

const NAMESPACE_CONDITION = goStruct('v1', 'NamespaceCondition', {
  type: goNamedString('v1.NamespaceConditionType'),
  status: goNamedString('v1.ConditionStatus'),
  lastTransitionTime: GO_TIME,
  reason: GO_STRING,
  message: GO_STRING,
});

/** NAMESPACE_TYPE is v1.Namespace. */
export const NAMESPACE_TYPE = goObjectType('v1', 'Namespace', {
  spec: goStruct('v1', 'NamespaceSpec', { finalizers: goSlice(goNamedString('v1.FinalizerName')) }),
  status: goStruct('v1', 'NamespaceStatus', { phase: goNamedString('v1.NamespacePhase'), conditions: goSlice(NAMESPACE_CONDITION) }),
});
