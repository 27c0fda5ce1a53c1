import { describe, it, expect } from 'vitest';
import { AppError } from '../../../../src/errors.js';
import { decodeKubeProtobuf } from '../../../../src/apimachinery/protobuf/decode-kube-protobuf.js';
import { numbered } from '../numbered.js';
import { MAGIC, concat, fromBase64, key, kubeBody, pb } from './encode.js';
import { KUBECTL_BODIES } from './kubectl-bodies.js';

const BYTES = [0x00, 0x01, 0x02, 0xff]; // not valid UTF-8, so only base64 can carry it
const BYTES_BASE64 = 'AAEC/w==';
const LAST_APPLIED =
  '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"bin","namespace":"team-a","creationTimestamp":null},' +
  '"data":{"text":"hi"},"binaryData":{"blob":"AAEC/w=="}}\n';

/** kubectlMeta is ObjectMeta as kubectl writes it: every unset string and number still present. */
function kubectlMeta(...fields: Uint8Array[]): Uint8Array {
  return pb.message(1, ...fields, pb.string(2, ''), pb.string(4, ''), pb.string(5, ''), pb.string(6, ''), pb.varint(7, 0), pb.message(8));
}

/** unknownOfEveryWireType is one unknown field of each wire type, groups nested. */
const unknownOfEveryWireType = concat(
  pb.varint(90, -5),
  pb.fixed64(91),
  pb.string(92, 'ignored'),
  pb.group(93, pb.varint(1, 1), pb.group(2, pb.fixed32(3)), pb.string(4, 'x')),
  pb.fixed32(94),
);

function expectAppError(body: Uint8Array, code: string, message: string | RegExp): void {
  let thrown: unknown;
  try {
    decodeKubeProtobuf(body);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect((thrown as AppError).code).toBe(code);
  expect((thrown as AppError).message).toMatch(message);
}

describe('decodeKubeProtobuf: kubectl bodies', () => {
  const cases = numbered([
    {
      name: 'create namespace',
      body: KUBECTL_BODIES.createNamespace,
      want: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' }, spec: {}, status: {} },
    },
    {
      name: 'create configmap from literals',
      body: KUBECTL_BODIES.createConfigMap,
      want: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'team-a' }, data: { a: 'b', c: 'd' } },
    },
    {
      name: 'create secret generic (data in base64, empty type left out)',
      body: KUBECTL_BODIES.createSecret,
      want: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'team-a' }, data: { k: 'dg==' } },
    },
    {
      name: 'create configmap with binary file and --save-config annotation',
      body: KUBECTL_BODIES.createBinaryConfigMap,
      want: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'bin', namespace: 'team-a', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': LAST_APPLIED } },
        data: { text: 'hi' },
        binaryData: { blob: BYTES_BASE64 },
      },
    },
    {
      name: 'create secret generic with --type and a binary file',
      body: KUBECTL_BODIES.createTypedSecret,
      want: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'typed', namespace: 'team-a' },
        data: { blob: BYTES_BASE64, k: 'dg==' },
        type: 'example.com/t',
      },
    },
  ]);

  it.each(cases)('case $n: $name', ({ body, want }) => {
    const decoded = decodeKubeProtobuf(fromBase64(body));
    expect(decoded).toStrictEqual(want);
    expect(JSON.parse(JSON.stringify(decoded))).toStrictEqual(want);
  });
});

describe('decodeKubeProtobuf: built bodies', () => {
  const cases = numbered([
    {
      name: 'Namespace with labels, annotations, finalizers and phase',
      body: kubeBody('v1', 'Namespace',
        kubectlMeta(pb.string(1, 'team-b'), pb.entry(11, 'app', 'web'), pb.entry(11, 'tier', 'front'), pb.entry(12, 'note', 'hi'),
          pb.string(14, 'example.com/f')),
        pb.message(2, pb.string(1, 'kubernetes')),
        pb.message(3, pb.string(1, 'Active'))),
      want: {
        apiVersion: 'v1', kind: 'Namespace',
        metadata: { name: 'team-b', labels: { app: 'web', tier: 'front' }, annotations: { note: 'hi' }, finalizers: ['example.com/f'] },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      },
    },
    {
      name: 'ConfigMap with data, binaryData and immutable false kept',
      body: kubeBody('v1', 'ConfigMap', kubectlMeta(pb.string(1, 'c'), pb.string(3, 'ns')),
        pb.entry(2, 'x', '1'), pb.entry(2, 'empty', ''), pb.entry(3, 'bin', Uint8Array.from(BYTES)), pb.bool(4, false)),
      want: {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' },
        data: { x: '1', empty: '' }, binaryData: { bin: BYTES_BASE64 }, immutable: false,
      },
    },
    {
      name: 'Secret with bytes data, type, stringData and immutable',
      body: kubeBody('v1', 'Secret', kubectlMeta(pb.string(1, 's')),
        pb.entry(2, 'tls.key', Uint8Array.from(BYTES)), pb.string(3, 'kubernetes.io/tls'), pb.entry(4, 'extra', 'plain'), pb.bool(5, true)),
      want: {
        apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' },
        data: { 'tls.key': BYTES_BASE64 }, type: 'kubernetes.io/tls', stringData: { extra: 'plain' }, immutable: true,
      },
    },
    {
      name: 'meta.k8s.io/v1 DeleteOptions with preconditions, propagationPolicy and a zero grace period',
      body: kubeBody('meta.k8s.io/v1', 'DeleteOptions', pb.varint(1, 0), pb.message(2, pb.string(1, 'u-1'), pb.string(2, '42')),
        pb.bool(3, false), pb.string(4, 'Foreground'), pb.string(5, 'All')),
      want: {
        apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0,
        preconditions: { uid: 'u-1', resourceVersion: '42' }, orphanDependents: false, propagationPolicy: 'Foreground', dryRun: ['All'],
      },
    },
    {
      name: 'v1 DeleteOptions with a negative (ten-byte) int64 grace period',
      body: kubeBody('v1', 'DeleteOptions', pb.varint(1, -1), pb.string(4, 'Background')),
      want: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: -1, propagationPolicy: 'Background' },
    },
    {
      name: 'ObjectMeta timestamps, generation, grace period and owner references; managedFields ignored',
      body: kubeBody('v1', 'ConfigMap', pb.message(1,
        pb.string(1, 'c'), pb.string(5, 'uid-1'), pb.string(6, '7'), pb.varint(7, 2 ** 40),
        pb.time(8, 1714979289, 500), pb.time(9, 1714979300), pb.varint(10, 0),
        pb.message(13, pb.string(1, 'Namespace'), pb.string(3, 'ns'), pb.string(4, 'u'), pb.string(5, 'v1'), pb.bool(6, true)),
        pb.message(13, pb.string(1, ''), pb.string(3, ''), pb.string(4, ''), pb.string(5, ''), pb.bool(7, false)),
        pb.message(17, pb.string(1, 'kubectl'), pb.string(2, 'Update')))),
      want: {
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: {
          name: 'c', uid: 'uid-1', resourceVersion: '7', generation: 2 ** 40,
          creationTimestamp: '2024-05-06T07:08:09Z', deletionTimestamp: '2024-05-06T07:08:20Z', deletionGracePeriodSeconds: 0,
          ownerReferences: [
            { kind: 'Namespace', name: 'ns', uid: 'u', apiVersion: 'v1', controller: true },
            { kind: '', name: '', uid: '', apiVersion: '', blockOwnerDeletion: false },
          ],
        },
      },
    },
    {
      name: 'unknown fields of every wire type are skipped in envelope, object, metadata and map entries',
      body: concat(MAGIC, unknownOfEveryWireType,
        pb.message(1, pb.string(1, 'v1'), unknownOfEveryWireType, pb.string(2, 'ConfigMap')),
        pb.message(2, unknownOfEveryWireType, pb.message(1, unknownOfEveryWireType, pb.string(1, 'c')),
          pb.message(2, pb.string(1, 'k'), unknownOfEveryWireType, pb.string(2, 'v')), unknownOfEveryWireType),
        unknownOfEveryWireType),
      want: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } },
    },
    {
      name: 'zero timestamps are left out, as JSON does',
      body: kubeBody('v1', 'Namespace', pb.message(1, pb.string(1, 'n'), pb.message(8), pb.time(9, 0, 0))),
      want: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
    },
    {
      name: 'a message field seen twice merges; a repeated scalar field accumulates; a later zero clears',
      body: kubeBody('v1', 'Namespace', pb.message(1, pb.string(1, 'n'), pb.string(3, 'x'), pb.string(14, 'a')),
        pb.message(1, pb.string(3, ''), pb.string(14, 'b'), pb.entry(11, 'k', '1')), pb.message(1, pb.entry(11, 'k', '2'))),
      want: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', finalizers: ['a', 'b'], labels: { k: '2' } } },
    },
    {
      name: 'map keys such as __proto__ become own properties',
      body: kubeBody('v1', 'ConfigMap', pb.entry(2, '__proto__', 'p'), pb.entry(2, 'constructor', 'c'), pb.message(2, pb.string(2, 'no key'))),
      want: { apiVersion: 'v1', kind: 'ConfigMap', data: JSON.parse('{"__proto__":"p","constructor":"c","":"no key"}') as unknown },
    },
    {
      name: 'an envelope without raw gives an empty object',
      body: concat(MAGIC, pb.message(1, pb.string(1, 'v1'), pb.string(2, 'Secret'))),
      want: { apiVersion: 'v1', kind: 'Secret' },
    },
  ]);

  it.each(cases)('case $n: $name', ({ body, want }) => {
    const decoded = decodeKubeProtobuf(body);
    expect(decoded).toStrictEqual(want);
  });

  it('case 12: the __proto__ label does not change the prototype', () => {
    const decoded = decodeKubeProtobuf(kubeBody('v1', 'ConfigMap', pb.entry(2, '__proto__', 'p')));
    const data = decoded['data'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
  });
});

describe('decodeKubeProtobuf: errors', () => {
  const namespace = fromBase64(KUBECTL_BODIES.createNamespace);
  const cases = numbered([
    { name: 'empty body', body: new Uint8Array(0), code: 'BadRequest', message: /^error decoding protobuf body: .*prefix/ },
    { name: 'wrong magic (JSON)', body: new TextEncoder().encode('{"kind":"Namespace"}'), code: 'BadRequest', message: /prefix/ },
    { name: 'magic cut short', body: Uint8Array.from([0x6b, 0x38, 0x73]), code: 'BadRequest', message: /prefix/ },
    { name: 'truncated inside the TypeMeta', body: namespace.subarray(0, 12), code: 'BadRequest', message: /runs past the end/ },
    { name: 'truncated inside raw', body: namespace.subarray(0, 40), code: 'BadRequest', message: /runs past the end/ },
    { name: 'truncated inside a varint', body: concat(MAGIC, [0x0a, 0x80]), code: 'BadRequest', message: /varint is truncated/ },
    { name: 'truncated fixed64', body: concat(MAGIC, key(9, 1), [1, 2, 3]), code: 'BadRequest', message: /fixed64 value is truncated/ },
    { name: 'truncated fixed32', body: concat(MAGIC, key(9, 5), [1]), code: 'BadRequest', message: /fixed32 value is truncated/ },
    { name: 'wire type 6', body: concat(MAGIC, key(9, 6)), code: 'BadRequest', message: /invalid wire type 6/ },
    { name: 'wire type 7 inside the object', body: kubeBody('v1', 'Namespace', Uint8Array.from(key(9, 7))), code: 'BadRequest', message: /invalid wire type 7/ },
    { name: 'field number 0', body: concat(MAGIC, [0x02, 0x00]), code: 'BadRequest', message: /invalid field number 0/ },
    { name: 'stray end group', body: concat(MAGIC, key(9, 4)), code: 'BadRequest', message: /unexpected end of group/ },
    { name: 'unclosed group', body: concat(MAGIC, key(9, 3), pb.varint(1, 1)), code: 'BadRequest', message: /group for field 9 is not closed/ },
    { name: 'mismatched end group', body: concat(MAGIC, key(9, 3), key(8, 4)), code: 'BadRequest', message: /does not match/ },
    { name: 'known field with the wrong wire type', body: kubeBody('v1', 'Namespace', pb.varint(1, 3)), code: 'BadRequest', message: /field metadata \(1\) has wire type 0/ },
    { name: 'envelope raw with the wrong wire type', body: concat(MAGIC, pb.varint(2, 1)), code: 'BadRequest', message: /envelope field 2/ },
    { name: 'map value with the wrong wire type', body: kubeBody('v1', 'ConfigMap', pb.message(2, pb.varint(2, 1))), code: 'BadRequest', message: /map entry field 2/ },
    { name: 'varint longer than ten bytes', body: concat(MAGIC, key(9, 0), Array(10).fill(0xff), [0x01]), code: 'BadRequest', message: /longer than 10 bytes/ },
    { name: 'int64 beyond the safe range', body: kubeBody('v1', 'DeleteOptions', pb.varint(1, 2n ** 60n)), code: 'BadRequest', message: /outside the safe integer range/ },
    { name: 'timestamp beyond year 9999', body: kubeBody('v1', 'Namespace', pb.message(1, pb.time(8, 253_402_300_800))), code: 'BadRequest', message: /outside the years/ },
    { name: 'no kind in the envelope', body: concat(MAGIC, pb.message(1, pb.string(1, 'v1'))), code: 'BadRequest', message: /does not name a kind/ },
    { name: 'unsupported kind', body: kubeBody('apps/v1', 'Deployment'), code: 'UnsupportedMediaType', message: 'protobuf is not supported for apps/v1/Deployment; send application/json' },
    { name: 'core kind without a schema', body: kubeBody('v1', 'Pod'), code: 'UnsupportedMediaType', message: 'protobuf is not supported for v1/Pod; send application/json' },
    { name: 'Namespace in the wrong version', body: kubeBody('v2', 'Namespace'), code: 'UnsupportedMediaType', message: /v2\/Namespace/ },
    { name: 'prototype names are not kinds', body: kubeBody('v1', 'constructor'), code: 'UnsupportedMediaType', message: /v1\/constructor/ },
  ]);

  it.each(cases)('case $n: $name', ({ body, code, message }) => {
    expectAppError(body, code, message);
  });

  it('case 26: every cut inside the kubectl namespace body except the field boundary fails as BadRequest', () => {
    const boundary = MAGIC.length + 17; // end of the TypeMeta field: an envelope with no raw is valid
    for (let cut = 1; cut < namespace.length - 4; cut++) {
      if (cut === boundary) continue;
      expectAppError(namespace.subarray(0, cut), 'BadRequest', /^error decoding protobuf body: /);
    }
  });
});
