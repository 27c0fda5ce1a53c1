// Per-connection limits of the GraphQL WebSocket (auth on): a frame over
// graphql.websocket.maxMessageBytes is closed with 1009 before it is read, a connection sending
// faster than its token bucket is closed with 1008 (Policy Violation), and point reads on the same
// server keep answering meanwhile. Other connections are not affected.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import type { TestApp } from '../../helpers/test-app.js';
import { GROUP, TOKENS, call, startAuthApp } from '../auth/auth-fixture.js';
import { rawSession, within } from './raw-ws.js';
import type { RawSession } from './raw-ws.js';

const POINT_READ = `/v1/objects/${GROUP}/v1alpha1/instances/web-root?cluster=root`;
const INIT = { type: 'connection_init', payload: { authorization: `Bearer ${TOKENS.admin}` } };

describe('GraphQL WebSocket connection limits', () => {
  let app: TestApp;
  const pointReads = async (n: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await call('GET', `${app.url}${POINT_READ}`, TOKENS.admin)).status);
    return statuses;
  };
  const initialised = async (): Promise<RawSession> => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send(INIT);
    await eventually(() => expect(session.messages.map((m) => m.type)).toContain('connection_ack'));
    return session;
  };

  beforeAll(async () => {
    app = await startAuthApp();
  });
  afterAll(async () => app?.stop());

  it('case 1: a frame over 128 KiB is closed with 1009, before and after connection_init; point reads answer', async () => {
    const anonymous = rawSession(app.url);
    await within(anonymous.opened);
    anonymous.send({ type: 'connection_init', payload: { padding: 'x'.repeat(1024 * 1024) } });
    const ready = await initialised();
    ready.send({ id: '1', type: 'subscribe', payload: { query: `subscription { cachedObjectEvents { type } } # ${'x'.repeat(200 * 1024)}` } });
    expect(await pointReads(5)).toEqual([200, 200, 200, 200, 200]);
    expect(await within(anonymous.closed)).toMatchObject({ code: 1009 });
    expect(await within(ready.closed)).toMatchObject({ code: 1009 });
    expect(anonymous.messages).toEqual([]);
    expect(ready.messages.filter((m) => m.type === 'error' || m.type === 'next')).toEqual([]);
  });

  it('case 2: a flood of messages is closed with 1008; point reads and another connection carry on', async () => {
    const flood = await initialised();
    const bystander = await initialised();
    for (let i = 0; i < 1000; i++) flood.send({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { cachedObjectEvents { type } }' } });
    expect(await pointReads(5)).toEqual([200, 200, 200, 200, 200]);
    expect(await within(flood.closed)).toMatchObject({ code: 1008 });
    // The bystander's own bucket is untouched: it still subscribes.
    bystander.send({ id: 'b1', type: 'subscribe', payload: { query: 'subscription { cachedObjectEvents { type } }' } });
    bystander.send({ type: 'ping' });
    await eventually(() => expect(bystander.messages.map((m) => m.type)).toContain('pong'));
    expect(bystander.messages.filter((m) => m.type === 'error')).toEqual([]);
    bystander.socket.close();
  });
});
