// A cachegate with auth on, and the tokens of the auth matrix: an admin, a token limited
// to logical cluster `root`, a read-only token, plus an unknown token and no token at all. The
// same CRD and a ClusterCachedResource exist in `root` and in `team-b`, each with one instance,
// replicated into the cache, so every API has something to show or to hide.

import { DEADLINE_MS, crd, eventually, request } from '../../helpers/kube-http.js';
import type { JsonResponse } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

/** TOKENS are the bearer tokens of the matrix; undefined = anonymous. */
export const TOKENS = Object.freeze({
  admin: 'admin-token-0123456789abcdef',
  rootOnly: 'root-only-token-0123456789abcdef',
  readOnly: 'read-only-token-0123456789abcdef',
  bad: 'not-a-configured-token-0123456789',
});

/** AUTH_CONFIG is the `auth` section of the test app. */
export const AUTH_CONFIG = {
  tokens: [
    { token: TOKENS.admin, user: 'admin' },
    { token: TOKENS.rootOnly, user: 'team-root', clusters: ['root'] },
    { token: TOKENS.readOnly, user: 'auditor', verbs: ['read'] },
  ],
  metrics: 'protected',
};

export const GROUP = 'machines.svm.io';
export const SCHEMA = `v1alpha1.instances.${GROUP}`;
export const CLUSTERS = ['root', 'team-b'] as const;

/** call sends one request with an optional bearer token and parses a JSON answer. */
export async function call(method: string, url: string, token?: string, body?: unknown, contentType = 'application/json'): Promise<JsonResponse> {
  return request(method, url, body, contentType, token === undefined ? {} : { authorization: `Bearer ${token}` });
}

/** readUntil reads a streaming response until its text contains marker (or the deadline passes). */
export async function readUntil(res: Response, marker: string): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), DEADLINE_MS);
  try {
    while (!text.includes(marker)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
  return text;
}

/** instancesUrl is the embedded API collection of instances in one cluster. */
export function instancesUrl(app: TestApp, cluster: string): string {
  return `${app.clusterUrl(cluster)}/apis/${GROUP}/v1alpha1/instances`;
}

/** startAuthApp starts the app with auth and seeds one replicated instance per cluster (`web-<cluster>`). */
export async function startAuthApp(extra: Record<string, unknown> = {}): Promise<TestApp> {
  const app = await startTestApp({ auth: AUTH_CONFIG, ...extra });
  for (const cluster of CLUSTERS) {
    const base = app.clusterUrl(cluster);
    await expectStatus(call('POST', `${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, TOKENS.admin, crd({ group: GROUP, plural: 'instances', kind: 'Instance' })), 201);
    await expectStatus(call('POST', `${base}${CCRS}`, TOKENS.admin, ccr('instances', { group: GROUP, version: 'v1alpha1', resource: 'instances' })), 201);
    await expectStatus(call('POST', instancesUrl(app, cluster), TOKENS.admin, { metadata: { name: `web-${cluster}`, labels: { app: 'web' } }, spec: { cluster } }), 201);
  }
  // Replication runs through the internal credential: the copies appear although every route needs a token.
  await eventually(async () => {
    const list = await app.app.read.listCachedObjects({ schema: SCHEMA }, {});
    if (list.items.length !== CLUSTERS.length) throw new Error(`${list.items.length} copies so far`);
  });
  return app;
}

async function expectStatus(pending: Promise<JsonResponse>, status: number): Promise<void> {
  const res = await pending;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}
