// The objects the replication benches create in a source: a ~700-byte "widget" custom resource
// (as stored, with server-set metadata) and a ~350-byte "small" one for the million-object run.
// Both are stamped with apiVersion, kind and the kcp.io/cluster annotation as the HTTP API would,
// and JSON round-tripped so their strings are flat, as if parsed from the network.

import type { KubeObject } from '../../src/apimachinery/object-meta.js';

/** BENCH_GVR is the custom resource the benches replicate. */
export const BENCH_GVR = { group: 'bench.cachegate.io', version: 'v1alpha1', resource: 'widgets', kind: 'Widget' } as const;

/** SELECTED are the labels the benches' CCR selects on; every bench object carries them. */
export const SELECTED: Readonly<Record<string, string>> = { 'app.kubernetes.io/part-of': 'bench' };

/** ObjectShape picks which object a bench creates. */
export type ObjectShape = 'widget' | 'small';

/** BENCH_NAME_FORMAT is benchObjectName as a printf format (for load generators that pick i). */
export const BENCH_NAME_FORMAT = 'widget-%07d';

/** benchObjectName is the name of object i; zero-padded so the names sort like the numbers. */
export function benchObjectName(i: number): string {
  return `widget-${i.toString().padStart(7, '0')}`;
}

/** benchObject builds object i of a shape in a logical cluster. */
export function benchObject(shape: ObjectShape, i: number, cluster: string): KubeObject {
  return shape === 'widget' ? widget(i, cluster) : small(i, cluster);
}

function widget(i: number, cluster: string): KubeObject {
  return flat({
    apiVersion: `${BENCH_GVR.group}/${BENCH_GVR.version}`,
    kind: BENCH_GVR.kind,
    metadata: {
      name: benchObjectName(i),
      labels: { ...SELECTED, 'app.kubernetes.io/name': `widget-${i % 200}`, tier: ['frontend', 'backend', 'cache'][i % 3] ?? 'frontend', bucket: `b${i % 100}` },
      annotations: { 'kcp.io/cluster': cluster, 'example.com/owner': `owner-${i % 97}@example.com` },
    },
    spec: {
      replicas: 1 + (i % 5),
      image: `registry.example.com/storefront/widget:1.${i % 40}.${i % 7}`,
      ports: [{ name: 'http', containerPort: 8080 + (i % 3), protocol: 'TCP' }],
      env: [{ name: 'LOG_LEVEL', value: i % 10 === 0 ? 'debug' : 'info' }, { name: 'REGION', value: 'eu-west-1' }],
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: `${256 + (i % 4) * 128}Mi` } },
      counter: 0,
    },
  });
}

function small(i: number, cluster: string): KubeObject {
  return flat({
    apiVersion: `${BENCH_GVR.group}/${BENCH_GVR.version}`,
    kind: BENCH_GVR.kind,
    metadata: { name: benchObjectName(i), labels: { ...SELECTED }, annotations: { 'kcp.io/cluster': cluster } },
    spec: { replicas: 1 + (i % 5), zone: `zone-${i % 3}`, counter: 0 },
  });
}

function flat(obj: unknown): KubeObject {
  return JSON.parse(JSON.stringify(obj)) as KubeObject;
}
