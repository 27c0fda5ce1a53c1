// The caller's own access, as kube-apiserver answers it in every cluster: a SelfSubjectAccessReview
// (`kubectl auth can-i`) says whether the caller may use a verb here, a SelfSubjectRulesReview
// (`kubectl auth can-i --list`) which verbs it may use, and a SelfSubjectReview (`kubectl auth
// whoami`) who the caller is. All are create-only and store nothing. Any caller
// may ask about itself, so these routes skip the verb check every other route of the API makes.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import { invalidError } from '../apimachinery/invalid-error.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { AccessVerb, ClusterAuthorizer } from './cluster-authorizer.js';
import type { ResourceInfo } from './resource-info.js';

/** AccessReviewOptions are what the answers are made from. */
export interface AccessReviewOptions {
  /** authorize is the API's own check (throws Forbidden); absent = every request is allowed. */
  readonly authorize?: ClusterAuthorizer;
  /** userOf names the request's caller; undefined = anonymous (auth off). */
  readonly userOf?: (req: FastifyRequest) => string | undefined;
  /** clusterOf is the logical cluster the path names (`*` = every cluster); it throws BadRequest for a malformed name. */
  readonly clusterOf: (req: FastifyRequest) => string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** anyCaller: the API's verb check does not apply to the route (any caller may ask about itself). */
    anyCaller?: boolean;
  }
}

const AUTHORIZATION = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview' } as const;
const RULES = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview' } as const;
const AUTHENTICATION = { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview' } as const;

type Review = typeof AUTHORIZATION | typeof RULES | typeof AUTHENTICATION;

/** The verbs a read access allows; a write access allows every other verb too. */
const READ_VERBS: readonly string[] = ['get', 'list', 'watch'];
const WRITE_VERBS: readonly string[] = ['create', 'update', 'patch', 'delete', 'deletecollection'];

/** ACCESS_REVIEW_RESOURCES are the reviews as discovery lists them (create only). */
export const ACCESS_REVIEW_RESOURCES: readonly ResourceInfo[] = Object.freeze([AUTHORIZATION, RULES, AUTHENTICATION].map((r) => Object.freeze({
  ...r, singular: r.kind.toLowerCase(), listKind: `${r.kind}List`, namespaced: false, statusSubresource: false,
  shortNames: [], categories: [], nameRule: 'subdomain', storageVersion: true, verbs: ['create'],
} satisfies ResourceInfo)));

/** registerAccessReviews serves both reviews in the (prefixed) API scope. */
export function registerAccessReviews(app: FastifyInstance, opts: AccessReviewOptions): void {
  // cluster is the path's, read (and checked) once per request.
  const route = (r: Review, answer: (req: FastifyRequest, cluster: string) => Record<string, unknown>): void => {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: `/apis/${r.group}/${r.version}/${r.resource}`, config: { anyCaller: true },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        if (req.method !== 'POST') {
          reply.header('allow', 'POST');
          throw new AppError('MethodNotAllowed', 'the server does not allow this method on the requested resource');
        }
        // A malformed cluster (or shard) in the path is 400 here as on every other route of the API.
        const cluster = opts.clusterOf(req);
        return reply.code(201).send({ apiVersion: `${r.group}/${r.version}`, kind: r.kind, ...answer(req, cluster) });
      },
    });
  };
  route(AUTHORIZATION, (req, cluster) => {
    const spec = reviewSpec(req.body);
    return { metadata: { creationTimestamp: null }, spec, status: decide(opts, req, cluster, spec) };
  });
  route(RULES, (req, cluster) => {
    const spec = specOf(req.body);
    const allows = (need: AccessVerb): boolean => refusal(opts, req, cluster, need) === undefined;
    const verbs = [...(allows('read') ? READ_VERBS : []), ...(allows('write') ? WRITE_VERBS : [])];
    const rules = verbs.length === 0 ? [] : [{ verbs, apiGroups: ['*'], resources: ['*'] }];
    return { metadata: { creationTimestamp: null }, spec, status: { resourceRules: rules, nonResourceRules: [], incomplete: false } };
  });
  route(AUTHENTICATION, (req) => {
    const user = opts.userOf?.(req);
    const userInfo = user === undefined
      ? { username: 'system:anonymous', groups: ['system:unauthenticated'] }
      : { username: user, groups: ['system:authenticated'] };
    return { metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }, status: { userInfo } };
  });
}

/** specOf is a review's spec, empty when the body has none. */
function specOf(body: unknown): Record<string, unknown> {
  return isPlainObject(body) && isPlainObject(body['spec']) ? body['spec'] : {};
}

/** reviewSpec is an access review's spec, which names exactly one kind of attributes (else 422 as kube-apiserver answers). */
function reviewSpec(body: unknown): Record<string, unknown> {
  const spec = specOf(body);
  const named = ['resourceAttributes', 'nonResourceAttributes'].filter((field) => isPlainObject(spec[field]));
  for (const field of named) checkStrings(spec[field] as Record<string, unknown>, field);
  if (named.length !== 1) {
    throw invalidError(AUTHORIZATION.kind, '', [{
      reason: 'FieldValueInvalid', field: 'spec.resourceAttributes',
      message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    }], AUTHORIZATION.group);
  }
  return spec;
}

/** checkStrings refuses an attribute that is not a string, with the error Go's decoder gives for it (400). */
function checkStrings(attributes: Record<string, unknown>, field: string): void {
  const type = field === 'resourceAttributes' ? 'ResourceAttributes' : 'NonResourceAttributes';
  for (const [name, value] of Object.entries(attributes)) {
    // Go leaves a string field empty for null; the selectors are objects, which no rule here reads.
    if (typeof value === 'string' || value === null || name === 'fieldSelector' || name === 'labelSelector') continue;
    const got = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    throw new AppError('BadRequest', `json: cannot unmarshal ${got} into Go struct field ${type}.spec.${field}.${name} of type string`);
  }
}

/** decide asks the API's own check for each access the reviewed verb needs (`*` needs both). */
function decide(opts: AccessReviewOptions, req: FastifyRequest, cluster: string, spec: Record<string, unknown>): { allowed: boolean; reason?: string } {
  const attributes = (spec['resourceAttributes'] ?? spec['nonResourceAttributes']) as Record<string, unknown>;
  const verb = typeof attributes['verb'] === 'string' ? attributes['verb'] : '';
  const needs: AccessVerb[] = verb === '*' ? ['read', 'write'] : READ_VERBS.includes(verb) ? ['read'] : ['write'];
  for (const need of needs) {
    const reason = refusal(opts, req, cluster, need);
    if (reason !== undefined) return { allowed: false, reason };
  }
  return { allowed: true };
}

/** refusal is why the API's own check refuses one kind of access to the request (its Forbidden message), or undefined. */
function refusal(opts: AccessReviewOptions, req: FastifyRequest, cluster: string, need: AccessVerb): string | undefined {
  try {
    opts.authorize?.(req, cluster, need);
    return undefined;
  } catch (err) {
    if (isAppError(err, 'Forbidden')) return err.message;
    throw err;
  }
}
