// Two cachegate replicas A and B that replicate one remote kcp source S (a third cachegate's
// embedded source, reached through a kubeconfig), with the read-your-writes overlay on for
// Instances. Each replicated resource gets a CRD, a `seed` object and a CCR in S's `root`, and the
// pair is returned once both replicas hold every seed.

import { expect } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { kubeconfigFor } from '../../helpers/kubeconfig.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Replicated is one resource the pair replicates, with its kind. */
export interface Replicated {
  readonly gvr: { readonly group: string; readonly version: string; readonly resource: string };
  readonly kind: string;
}

/** ReplicaPairOptions: S's extra config fields, the resources, and the replicas' minResourceVersion bound. */
export interface ReplicaPairOptions {
  readonly sourceFields: Record<string, unknown>;
  readonly resources: readonly Replicated[];
  readonly waitMs: number;
}

/** ReplicaPair is a running source and its two replicas. */
export interface ReplicaPair {
  readonly source: TestApp;
  readonly a: TestApp;
  readonly b: TestApp;
  stop(): Promise<void>;
}

/** startReplicaPair seeds S, starts A and B, and waits until both have replicated every seed. */
export async function startReplicaPair(opts: ReplicaPairOptions): Promise<ReplicaPair> {
  const source = await startTestApp(opts.sourceFields);
  const root = source.clusterUrl('root');
  for (const { gvr, kind } of opts.resources) {
    expect((await request('POST', `${root}${CRDS}`, crd({ group: gvr.group, plural: gvr.resource, kind, versions: [gvr.version] }))).status).toBe(201);
    expect((await request('POST', `${root}/apis/${gvr.group}/${gvr.version}/${gvr.resource}`, { metadata: { name: 'seed' } })).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr(gvr.resource, gvr))).status).toBe(201);
  }
  const replica = {
    embedded: { enabled: false },
    sources: [{ name: 's', kind: 'kcp', kubeconfig: kubeconfigFor(source.url) }],
    cache: { enabled: true, gvks: ['machines.svm.io/v1alpha1/Instance'] },
    limits: { minResourceVersionWaitMs: opts.waitMs },
  };
  const a = await startTestApp(replica);
  const b = await startTestApp(replica);
  for (const app of [a, b]) {
    for (const { gvr } of opts.resources) {
      const seeded = `${app.url}/v1/schemas/${gvr.version}.${gvr.resource}.${gvr.group}/objects?cluster=root&name=seed`;
      await eventually(async () => expect((await request('GET', seeded)).body.items).toHaveLength(1));
    }
  }
  return {
    source, a, b,
    stop: async () => {
      await b.stop();
      await a.stop();
      await source.stop();
    },
  };
}

/** readWithTokens is a REST point read of an Instance waiting for every given minResourceVersion. */
export function readWithTokens(objects: string, name: string, tokens: readonly string[]): ReturnType<typeof request> {
  return request('GET', `${objects}/${name}?cluster=root&shard=s${tokens.map((t) => `&minResourceVersion=${encodeURIComponent(t)}`).join('')}`);
}
