// Step 4, identity: every CCR has an identity secret (`kcp-system/<ccr name>` unless the spec
// names one), whose data.key is 32 random bytes as unpadded base64url (43 characters);
// status.identityHash is the lowercase hex SHA-256 of that 43-character string. The hash is set
// once; a secret whose hash no longer matches makes IdentityValid False (kcp does not rotate).
//   case 1: no secretRef, no secret → create the secret, set secretRef (stop)
//   case 2: no secretRef, secret exists → set secretRef to it (stop)
//   case 3: secret without data.key → IdentityValid=False (retried)
//   case 4: hash not yet in status → set it, IdentityValid=True
//   case 5: hash differs from status → IdentityValid=False (retried)

import { createHash, randomBytes } from 'node:crypto';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import { IDENTITY_NAMESPACE } from './ccr-view.js';
import type { ReconcileContext, StepResult } from './reconcile-context.js';

/** RETRY_IDENTITY_MS is how soon a broken identity is checked again. */
export const RETRY_IDENTITY_MS = 5000;

/** reconcileIdentity makes sure the CCR has an identity secret and a matching identityHash. */
export async function reconcileIdentity(ctx: ReconcileContext): Promise<StepResult> {
  const { ccr } = ctx;
  if (!ccr.secretRef) {
    await ctx.client.ensureNamespace(ccr.cluster, IDENTITY_NAMESPACE);
    const existing = await ctx.client.getSecret(ccr.cluster, IDENTITY_NAMESPACE, ccr.name);
    if (!existing) await ctx.client.createSecret(ccr.cluster, newIdentitySecret(ccr.name));
    await ctx.client.patchCcr(ccr.cluster, ccr.name, { spec: { identity: { secretRef: { namespace: IDENTITY_NAMESPACE, name: ccr.name } } } });
    return 'stop';
  }
  const secret = await ctx.client.getSecret(ccr.cluster, ccr.secretRef.namespace, ccr.secretRef.name);
  const key = secret ? identityKeyOf(secret) : undefined;
  if (key === undefined) {
    return invalid(ctx, `secret ${ccr.secretRef.namespace}/${ccr.secretRef.name} is missing or has no data.key`);
  }
  const hash = identityHashOf(key);
  if (ctx.status.identityHash === '') ctx.status.setIdentityHash(hash);
  else if (ctx.status.identityHash !== hash) {
    return invalid(ctx, `hash mismatch: identity secret hash "${hash}" must match status.identityHash "${ctx.status.identityHash}"`);
  }
  ctx.status.setCondition('IdentityValid', true, 'Valid');
  return 'continue';
}

/** identityHashOf is the lowercase hex SHA-256 of the identity key string. */
export function identityHashOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** newIdentitySecret builds a secret holding a fresh 43-character key. */
export function newIdentitySecret(name: string): KubeObject {
  const key = randomBytes(32).toString('base64url');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: IDENTITY_NAMESPACE },
    type: 'Opaque',
    data: { key: Buffer.from(key, 'utf8').toString('base64') },
  };
}

function identityKeyOf(secret: KubeObject): string | undefined {
  const data = isPlainObject(secret['data']) ? secret['data'] : {};
  const encoded = data['key'];
  if (typeof encoded !== 'string' || encoded === '') return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

function invalid(ctx: ReconcileContext, message: string): StepResult {
  ctx.status.setCondition('IdentityValid', false, 'IdentityVerificationFailed', message);
  ctx.requeueAfterMs = RETRY_IDENTITY_MS;
  return 'stop';
}
