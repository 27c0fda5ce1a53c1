// The rig of the source-fault tests: a remote cachegate (its embedded source is the source),
// a TCP proxy in front of it, and a local cachegate whose only source is the remote, reached
// through the proxy with a kubeconfig. Writes go to the remote directly; only the local
// cachegate's replication traffic crosses the proxy, so faults hit exactly that.

import { expect } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import { TcpProxy } from '../../helpers/tcp-proxy.js';
import { kubeconfigFor } from '../../helpers/kubeconfig.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
/** GVR is the replicated resource. */
export const GVR = { group: 'faults.example.com', version: 'v1', resource: 'things' };

/** Rig is a running remote, proxy and local cachegate. */
export interface Rig {
  readonly remote: TestApp;
  readonly proxy: TcpProxy;
  readonly local: TestApp;
  /** things is the remote's collection URL of GVR in logical cluster root. */
  readonly things: string;
  stop(): Promise<void>;
}

/** RigOptions: fields for the remote's config, and whether the proxy starts down. */
export interface RigOptions {
  readonly remoteFields?: Record<string, unknown>;
  readonly proxyDown?: boolean;
  readonly seed?: boolean;
}

/** startRig starts the three pieces; with seed (default) the CRD and the CCR exist in the remote. */
export async function startRig(opts: RigOptions = {}): Promise<Rig> {
  const remote = await startTestApp(opts.remoteFields);
  const proxy = await TcpProxy.start(Number(new URL(remote.url).port));
  if (opts.seed ?? true) await seed(remote.clusterUrl('root'));
  if (opts.proxyDown) await proxy.down();
  const local = await startTestApp({ embedded: { enabled: false }, sources: [{ name: 'remote', kind: 'kcp', kubeconfig: kubeconfigFor(`http://127.0.0.1:${proxy.port}`) }] });
  return {
    remote, proxy, local,
    things: `${remote.clusterUrl('root')}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`,
    stop: async () => {
      await local.stop();
      await proxy.close();
      await remote.stop();
    },
  };
}

/** seed creates the CRD and a CCR for it. */
export async function seed(base: string): Promise<void> {
  expect((await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Thing', versions: [GVR.version] }))).status).toBe(201);
  expect((await request('POST', `${base}${CCRS}`, ccr('things', GVR))).status).toBe(201);
}



interface Original {
  readonly metadata: { readonly name: string; readonly resourceVersion: string };
  readonly spec?: unknown;
}

/** fingerprint is what must match between an original and its copy: name, resourceVersion and spec. */
function fingerprint(obj: Original): string {
  return `${obj.metadata.name}@${obj.metadata.resourceVersion}@${JSON.stringify(obj.spec ?? null)}`;
}

/** sourceState fingerprints every object of GVR in the remote. */
export async function sourceState(rig: Rig): Promise<string[]> {
  const res = await request('GET', rig.things);
  expect(res.status).toBe(200);
  return (res.body.items as Original[]).map(fingerprint).sort();
}

/** cacheState fingerprints the originals held in the local cache (spec.raw of each CachedObject). */
export async function cacheState(rig: Rig): Promise<string[]> {
  const copies = await cachedObjects(rig.local.url, '', 'remote', 'root');
  return copies.map((c) => fingerprint(c.spec.raw as Original)).sort();
}

/** expectCacheEqualsSource waits until the local cache holds exactly the remote's objects. */
export async function expectCacheEqualsSource(rig: Rig, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => expect(await cacheState(rig)).toEqual(await sourceState(rig)), timeoutMs, 200);
}
