// A watch on which nothing happens is healthy and stays open. Clients that end a watch after some
// seconds without data (client-node's `Watch` does after 30 s) would re-watch, and cachegate's
// reflector also re-reads the source's identity before each re-watch: quiet resources would cost
// requests and log lines forever. The reflector keeps the stream until the server ends it.

import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { Reflector } from '../../../src/kube/reflector.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { eventually } from '../../helpers/kube-http.js';
import { TcpProxy } from '../../helpers/tcp-proxy.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, SILENT, configMap } from './kube-test-kit.js';

/** QUIET_MS outlasts client-node's 30 s watch inactivity timeout. */
const QUIET_MS = 35_000;

describe('a quiet watch', () => {
  let app: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  let reflector: Reflector | undefined;
  afterEach(async () => {
    reflector?.stop();
    await proxy?.close();
    await app?.stop();
  });

  it('case 1: no event and no bookmark for longer than 30 s: the watch stays open, no error, no restart, later events arrive', { timeout: QUIET_MS + 30_000 }, async () => {
    // No bookmarks either: the stream carries nothing at all.
    app = await startTestApp({ watch: { bookmarkIntervalSeconds: 0 } });
    // The reflector reaches the source through a proxy that counts its requests.
    proxy = await TcpProxy.start(Number(new URL(app.url).port));
    const client = new DynamicClient(embeddedSource(`http://127.0.0.1:${proxy.port}`));
    reflector = new Reflector({ source: client.source, client, gvr: CONFIGMAPS, cluster: 'root', log: SILENT });
    reflector.start();
    await eventually(() => expect(reflector?.hasSynced()).toBe(true), 10_000);
    await eventually(() => expect(proxy?.counts.watches).toBe(1), 10_000);
    proxy.resetCounts();

    // The quiet period is the scenario itself, not a wait for something to happen.
    await sleep(QUIET_MS);
    expect(proxy.counts.requests).toBe(0);
    expect(reflector.restarts).toBe(0);
    expect(reflector.lastError()).toBeUndefined();

    await new DynamicClient(embeddedSource(app.url)).create('root', CONFIGMAPS, 'default', configMap('after-the-quiet'));
    await eventually(() => expect(reflector?.get('root', 'default', 'after-the-quiet')).toBeDefined(), 10_000);
    expect(reflector.restarts).toBe(0);
  });
});
