// Step 4, reconcileIdentity, case by case as its header comment numbers them, and the identity
// helpers (kcp's example: key `xxx` → cd2eb083…).

import { describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE } from '../../../../src/controllers/clustercachedresources/ccr-view.js';
import {
  identityHashOf,
  newIdentitySecret,
  reconcileIdentity,
  RETRY_IDENTITY_MS,
} from '../../../../src/controllers/clustercachedresources/reconcile-identity.js';
import { ccr, CLUSTER, context, NOW, world } from './fakes.js';

const XXX_HASH = 'cd2eb0837c9b4c962c22d2ff8b5441b7b45805887f051d39bf133b583baf6860';
const SECRET_REF = { namespace: IDENTITY_NAMESPACE, name: 'instances' };

describe('identity helpers', () => {
  it('identityHashOf is the lowercase hex SHA-256 of the key string (kcp: xxx → cd2eb083…)', () => {
    expect(identityHashOf('xxx')).toBe(XXX_HASH);
  });

  it('newIdentitySecret holds a fresh 43-character base64url key in data.key', () => {
    const a = newIdentitySecret('instances');
    const b = newIdentitySecret('instances');
    expect(a.metadata).toEqual({ name: 'instances', namespace: IDENTITY_NAMESPACE });
    expect(a.kind).toBe('Secret');
    const key = Buffer.from((a['data'] as { key: string }).key, 'base64').toString('utf8');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect((b['data'] as { key: string }).key).not.toBe((a['data'] as { key: string }).key);
  });
});

describe('reconcileIdentity', () => {
  it('case 1: no secretRef, no secret → create the secret, set secretRef (stop)', async () => {
    const w = world();
    const ctx = context(w, ccr());
    expect(await reconcileIdentity(ctx)).toBe('stop');
    expect([...w.client.namespaces]).toEqual([`${CLUSTER}/${IDENTITY_NAMESPACE}`]);
    expect(w.client.createdSecrets).toHaveLength(1);
    expect(w.client.createdSecrets[0]?.metadata).toEqual({ name: 'instances', namespace: IDENTITY_NAMESPACE });
    expect(w.client.patches).toEqual([{ cluster: CLUSTER, name: 'instances', body: { spec: { identity: { secretRef: SECRET_REF } } } }]);
    expect(ctx.status.changed()).toBe(false);
  });

  it('case 2: no secretRef, secret exists → set secretRef to it, keep the secret (stop)', async () => {
    const w = world();
    w.client.putSecret(IDENTITY_NAMESPACE, 'instances', 'xxx');
    const ctx = context(w, ccr());
    expect(await reconcileIdentity(ctx)).toBe('stop');
    expect(w.client.createdSecrets).toEqual([]);
    expect(w.client.patches).toEqual([{ cluster: CLUSTER, name: 'instances', body: { spec: { identity: { secretRef: SECRET_REF } } } }]);
  });

  const broken = [
    { name: 'case 3: secret without data.key → IdentityValid=False (retried)', key: undefined as string | undefined, stored: true },
    { name: 'case 3: secret with an empty data.key → IdentityValid=False (retried)', key: '', stored: true },
    { name: 'case 3: the secret named by secretRef is missing → IdentityValid=False (retried)', key: undefined, stored: false },
  ];

  it.each(broken)('$name', async ({ key, stored }) => {
    const w = world();
    if (stored) w.client.putSecret(IDENTITY_NAMESPACE, 'instances', key);
    const ctx = context(w, ccr({ secretRef: SECRET_REF, status: { identityHash: XXX_HASH } }));
    expect(await reconcileIdentity(ctx)).toBe('stop');
    expect(ctx.status.condition('IdentityValid')).toEqual({
      type: 'IdentityValid', status: 'False', reason: 'IdentityVerificationFailed',
      message: `secret ${IDENTITY_NAMESPACE}/instances is missing or has no data.key`, lastTransitionTime: NOW,
    });
    expect(ctx.requeueAfterMs).toBe(RETRY_IDENTITY_MS);
    expect(ctx.status.identityHash).toBe(XXX_HASH);
  });

  it('case 4: hash not yet in status → set it, IdentityValid=True (continue)', async () => {
    const w = world();
    w.client.putSecret(IDENTITY_NAMESPACE, 'instances', 'xxx');
    const ctx = context(w, ccr({ secretRef: SECRET_REF }));
    expect(await reconcileIdentity(ctx)).toBe('continue');
    expect(ctx.status.identityHash).toBe(XXX_HASH);
    expect(ctx.status.condition('IdentityValid')).toMatchObject({ status: 'True', reason: 'Valid' });
    expect(ctx.requeueAfterMs).toBeUndefined();
    expect(w.client.patches).toEqual([]);
  });

  it('case 4: a secretRef without namespace means kcp-system', async () => {
    const w = world();
    w.client.putSecret(IDENTITY_NAMESPACE, 'custom', 'xxx');
    const ctx = context(w, ccr({ secretRef: { name: 'custom' } }));
    expect(await reconcileIdentity(ctx)).toBe('continue');
    expect(ctx.status.identityHash).toBe(XXX_HASH);
  });

  it('case 4 (already done): the hash in status matches → IdentityValid=True, status unchanged (continue)', async () => {
    const w = world();
    w.client.putSecret(IDENTITY_NAMESPACE, 'instances', 'xxx');
    const status = { identityHash: XXX_HASH, conditions: [{ type: 'IdentityValid', status: 'True', reason: 'Valid', lastTransitionTime: '2025-01-01T00:00:00Z' }] };
    const ctx = context(w, ccr({ secretRef: SECRET_REF, status }));
    expect(await reconcileIdentity(ctx)).toBe('continue');
    expect(ctx.status.changed()).toBe(false);
  });

  it('case 5: hash differs from status → IdentityValid=False (retried), the status hash is kept', async () => {
    const w = world();
    w.client.putSecret(IDENTITY_NAMESPACE, 'instances', 'rotated');
    const ctx = context(w, ccr({ secretRef: SECRET_REF, status: { identityHash: XXX_HASH } }));
    expect(await reconcileIdentity(ctx)).toBe('stop');
    expect(ctx.status.identityHash).toBe(XXX_HASH);
    expect(ctx.status.condition('IdentityValid')).toMatchObject({
      status: 'False',
      reason: 'IdentityVerificationFailed',
      message: `hash mismatch: identity secret hash "${identityHashOf('rotated')}" must match status.identityHash "${XXX_HASH}"`,
    });
    expect(ctx.requeueAfterMs).toBe(RETRY_IDENTITY_MS);
  });

  it('case 1 then case 4: the generated secret verifies on the next pass', async () => {
    const w = world();
    expect(await reconcileIdentity(context(w, ccr()))).toBe('stop');
    const ctx = context(w, ccr({ secretRef: SECRET_REF }));
    expect(await reconcileIdentity(ctx)).toBe('continue');
    const created = w.client.createdSecrets[0]!;
    const key = Buffer.from((created['data'] as { key: string }).key, 'base64').toString('utf8');
    expect(ctx.status.identityHash).toBe(identityHashOf(key));
    expect(ctx.status.identityHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
