// Retained object versions are bounded by bytes, not only by count, on the real process
// (`npm start`) with a small V8 heap:
//   case 1: 150 tiny merge patches (each retried after Retry-After if the loaded process sheds it
//           with 503) to a ~3 MB object (a custom resource: a ConfigMap may not pass
//           1 MiB), replicated into the cache by a ClusterCachedResource (so the source's store and
//           the cache's store both keep versions), leave the process alive (without the byte
//           bound it dies of heap exhaustion after about 30): it serves the object with the last
//           patch and its CachedObject, and a watch from the object's first resourceVersion
//           answers 410 Expired, because the event windows dropped the oldest versions.

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DEADLINE_MS, crd, eventually, request } from '../../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../../helpers/process.js';
import { CCRS, ccr } from '../../helpers/replication.js';

/** HEAP_MIB is the process's old-space limit: a few dozen versions of the object exhaust it. */
const HEAP_MIB = 256;
const BLOB_BYTES = 3_000_000;
const PATCHES = 150;
const GVR = { group: 'blobs.example.com', version: 'v1', resource: 'blobs' };
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CACHED_OBJECT = '/services/cache/shards/*/clusters/root/apis/cache.kcp.io/v1alpha1/cachedobjects/v1.blobs.blobs.example.com.default.big';

describe('retained object versions on a small heap', () => {
  it('case 1: 150 tiny patches to a 3 MB object keep the process alive; the oldest versions expire', async () => {
    const port = await freePort();
    const proc = startProcess(['--port', String(port)], { NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}` });
    let exit: number | string | undefined;
    void proc.exited.then((code) => (exit = code));
    try {
      const base = `http://127.0.0.1:${port}`;
      const root = `${base}/clusters/root`;
      const blobs = `${root}/apis/${GVR.group}/${GVR.version}/namespaces/default/${GVR.resource}`;
      const big = `${blobs}/big`;
      await waitReady(proc, base);
      const definition = crd({ group: GVR.group, plural: GVR.resource, kind: 'Blob', scope: 'Namespaced', versions: [GVR.version] });
      expect((await request('POST', `${root}${CRDS}`, definition)).status).toBe(201);
      expect((await request('POST', `${root}${CCRS}`, ccr('blobs', GVR))).status).toBe(201);
      const created = await request('POST', blobs, {
        apiVersion: `${GVR.group}/${GVR.version}`,
        kind: 'Blob',
        metadata: { name: 'big' },
        spec: { blob: 'x'.repeat(BLOB_BYTES), n: 0 },
      });
      expect(created.status).toBe(201);
      const firstVersion = created.body.metadata.resourceVersion as string;
      await eventually(async () => expect((await fetch(`${base}${CACHED_OBJECT}`)).status).toBe(200));

      const patch = (n: number): Promise<Response> => fetch(big, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { n } }),
      }).catch(async (err: unknown) => {
        // Diagnostics only: wait (within the deadline) for a dying process to exit and print why.
        await Promise.race([proc.exited, sleep(DEADLINE_MS)]);
        const stderr = proc.output().stderr.split('\n').filter((line) => line.trim() !== '').slice(0, 3).join(' | ');
        throw new Error(`patch ${n} failed (${String(err)}); process exit: ${String(exit)}; stderr: ${stderr}`);
      });
      for (let n = 1; n <= PATCHES; n++) {
        let res = await patch(n);
        // A loaded machine may stall the event loop past the shedding threshold: the server then
        // answers 503 with Retry-After, and a client waits that long and sends again, as this does.
        const deadline = performance.now() + DEADLINE_MS;
        while (res.status === 503 && res.headers.get('retry-after') !== null && performance.now() < deadline) {
          await res.arrayBuffer();
          await sleep(Number(res.headers.get('retry-after')) * 1000);
          res = await patch(n);
        }
        expect(res.status, `patch ${n}`).toBe(200);
        await res.arrayBuffer();
      }

      expect(exit).toBeUndefined();
      const served = await request('GET', big);
      expect(served.status).toBe(200);
      expect(served.body.spec.n).toBe(PATCHES);
      expect(served.body.spec.blob).toHaveLength(BLOB_BYTES);
      // The cache caught up with the last patch too.
      await eventually(async () => {
        const copy = await request('GET', `${base}${CACHED_OBJECT}`);
        expect(copy.body.spec?.raw?.spec?.n).toBe(PATCHES);
      });
      const watch = await request('GET', `${blobs}?watch=true&resourceVersion=${firstVersion}`);
      expect(watch.status).toBe(410);
      expect(watch.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    } finally {
      proc.killAll();
      await proc.exited;
    }
  }, 8 * DEADLINE_MS);
});
