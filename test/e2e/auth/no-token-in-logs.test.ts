// No token in any log line: the app's JSON log, at debug level, is captured while
// requests with good, bad and malformed tokens run, REST, GraphQL and the kube API, and while the
// controllers replicate with the internal credential. Neither a configured token nor the internal
// one may appear.

import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { crd, eventually } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { testConfig } from '../../helpers/test-app.js';
import { AUTH_CONFIG, GROUP, SCHEMA, TOKENS, call } from './auth-fixture.js';

describe('logs with auth on', () => {
  it('case 1: no configured token, bad token or internal token is ever logged', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => { lines.push(String(chunk)); done(); } });
    const app = await buildApp(testConfig({ auth: AUTH_CONFIG, logLevel: 'debug' }), {
      logger: pino({ level: 'debug', redact: ['req.headers.authorization', 'headers.authorization'] }, sink),
    });
    const url = await app.start();
    try {
      const root = `${url}/clusters/root`;
      expect((await call('POST', `${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, TOKENS.admin, crd({ group: GROUP, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
      expect((await call('POST', `${root}${CCRS}`, TOKENS.admin, ccr('instances', { group: GROUP, version: 'v1alpha1', resource: 'instances' }))).status).toBe(201);
      expect((await call('POST', `${root}/apis/${GROUP}/v1alpha1/instances`, TOKENS.admin, { metadata: { name: 'logged' } })).status).toBe(201);
      await eventually(async () => expect((await app.read.listCachedObjects({ schema: SCHEMA }, {})).items).toHaveLength(1));
      await call('GET', `${url}/v1/cachedobjects?cluster=team-b`, TOKENS.rootOnly);
      await call('GET', `${url}/v1/schemas`, TOKENS.bad);
      await call('POST', `${url}/graphql`, TOKENS.bad, { query: '{ schemas { name } }' });
      await fetch(`${url}/v1/schemas`, { headers: { authorization: `Basic ${TOKENS.admin}` } });
    } finally {
      await app.stop();
    }
    const log = lines.join('');
    expect(log).toContain('"statusCode":401');
    for (const token of Object.values(TOKENS)) expect(log).not.toContain(token);
    // The internal token is 32 random bytes as base64url: 43 characters. No such word is in the log.
    expect(log).not.toMatch(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/);
  });
});
