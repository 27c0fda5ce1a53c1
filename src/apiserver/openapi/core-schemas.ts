// Compact hand-made OpenAPI v3 schemas of the core/v1 kinds the embedded source serves
// (Namespace, ConfigMap, Secret, Event): their top-level fields with descriptions, named as
// kube-apiserver names them, so that `kubectl explain` prints something useful.

import type { Components, OpenApiSchema } from './meta-schemas.js';
import { API_VERSION, KIND, OBJECT_METADATA, ref, stringMap, text } from './meta-schemas.js';

/** KindSchema is a kind's named schema plus the components it refers to besides the meta ones. */
export interface KindSchema {
  readonly name: string;
  readonly schema: OpenApiSchema;
  readonly components?: Components;
}

function object(description: string, properties: Record<string, OpenApiSchema>, extra: Record<string, unknown> = {}): OpenApiSchema {
  return { type: 'object', description, properties: { apiVersion: API_VERSION, kind: KIND, metadata: OBJECT_METADATA, ...properties }, ...extra };
}

const CORE = 'io.k8s.api.core.v1';

const NAMESPACE: KindSchema = {
  name: `${CORE}.Namespace`,
  schema: object('Namespace provides a scope for Names. Use of multiple namespaces is optional.', {
    spec: ref(`${CORE}.NamespaceSpec`, 'Spec defines the behavior of the Namespace.', { default: {} }),
    status: ref(`${CORE}.NamespaceStatus`, 'Status describes the current status of a Namespace.', { default: {} }),
  }),
  components: {
    [`${CORE}.NamespaceSpec`]: {
      type: 'object',
      description: 'NamespaceSpec describes the attributes on a Namespace.',
      properties: {
        finalizers: {
          type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic',
          description: 'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
        },
      },
    },
    [`${CORE}.NamespaceStatus`]: {
      type: 'object',
      description: 'NamespaceStatus is information about the current status of a Namespace.',
      properties: {
        phase: text('Phase is the current lifecycle phase of the namespace.', { enum: ['Active', 'Terminating'] }),
        conditions: {
          type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          description: 'Represents the latest available observations of a namespace\'s current state.',
        },
      },
    },
  },
};

const CONFIG_MAP: KindSchema = {
  name: `${CORE}.ConfigMap`,
  schema: object('ConfigMap holds configuration data for pods to consume.', {
    data: stringMap('Data contains the configuration data. Each key must consist of alphanumeric characters, \'-\', '
      + '\'_\' or \'.\'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data '
      + 'must not overlap with the keys in the BinaryData field, this is enforced during validation process.'),
    binaryData: {
      type: 'object', additionalProperties: { type: 'string', format: 'byte' },
      description: 'BinaryData contains the binary data. Each key must consist of alphanumeric characters, \'-\', \'_\' '
        + 'or \'.\'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in '
        + 'BinaryData must not overlap with the ones in the Data field.',
    },
    immutable: {
      type: 'boolean',
      description: 'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object '
        + 'metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
    },
  }),
};

const SECRET: KindSchema = {
  name: `${CORE}.Secret`,
  schema: object('Secret holds secret data of a certain type. The total bytes of the values in the Data field must '
    + 'be less than MaxSecretSize bytes.', {
    data: {
      type: 'object', additionalProperties: { type: 'string', format: 'byte' },
      description: 'Data contains the secret data. Each key must consist of alphanumeric characters, \'-\', \'_\' or '
        + '\'.\'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary '
        + '(possibly non-string) data value here.',
    },
    stringData: stringMap('stringData allows specifying non-binary secret data in string form. It is provided as a '
      + 'write-only input field for convenience. All keys and values are merged into the data field on write, '
      + 'overwriting any existing values. The stringData field is never output when reading from the API.'),
    type: text('Used to facilitate programmatic handling of secret data.'),
    immutable: {
      type: 'boolean',
      description: 'Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object '
        + 'metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
    },
  }),
};

const EVENT: KindSchema = {
  name: `${CORE}.Event`,
  schema: object('Event is a report of an event somewhere in the cluster.', {
    involvedObject: ref(`${CORE}.ObjectReference`, 'The object that this event is about.', { default: {} }),
    reason: text('This should be a short, machine understandable string that gives the reason for the transition '
      + 'into the object\'s current status.'),
    message: text('A human-readable description of the status of this operation.'),
    source: ref(`${CORE}.EventSource`, 'The component reporting this event. Should be a short machine understandable string.', { default: {} }),
    type: text('Type of this event (Normal, Warning), new types could be added in the future.'),
    count: { type: 'integer', format: 'int32', description: 'The number of times this event has occurred.' },
    firstTimestamp: text('The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', { format: 'date-time' }),
    lastTimestamp: text('The time at which the most recent occurrence of this event was recorded.', { format: 'date-time' }),
    eventTime: text('Time when this Event was first observed.', { format: 'date-time' }),
    action: text('What action was taken/failed regarding to the Regarding object.'),
    reportingComponent: text('Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.', { default: '' }),
    reportingInstance: text('ID of the controller instance, e.g. `kubelet-xyzf`.', { default: '' }),
  }, { required: ['metadata', 'involvedObject'] }),
  components: {
    [`${CORE}.ObjectReference`]: {
      type: 'object',
      description: 'ObjectReference contains enough information to let you inspect or modify the referred object.',
      properties: {
        apiVersion: text('API version of the referent.'),
        kind: text('Kind of the referent.'),
        namespace: text('Namespace of the referent.'),
        name: text('Name of the referent.'),
        uid: text('UID of the referent.'),
        resourceVersion: text('Specific resourceVersion to which this reference is made, if any.'),
        fieldPath: text('If referring to a piece of an object instead of an entire object, this string should contain '
          + 'a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].'),
      },
      'x-kubernetes-map-type': 'atomic',
    },
    [`${CORE}.EventSource`]: {
      type: 'object',
      description: 'EventSource contains information for an event.',
      properties: {
        component: text('Component from which the event is generated.'),
        host: text('Node name on which the event is generated.'),
      },
    },
  },
};

/** CORE_V1_KINDS are the core/v1 schemas by kind. */
export const CORE_V1_KINDS: Readonly<Record<string, KindSchema>> = Object.freeze({
  Namespace: NAMESPACE, ConfigMap: CONFIG_MAP, Secret: SECRET, Event: EVENT,
});
