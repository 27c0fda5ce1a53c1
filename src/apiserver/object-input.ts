// Checks every write body goes through before any hook or the store sees it, with the
// messages the Kubernetes API server uses for the same mistakes.

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { apiVersionOf } from '../apimachinery/gvr.js';
import { invalidError, validateObjectMeta, validateObjectMetaUpdate } from '../apimachinery/validation.js';
import type { ObjectKey } from '../store/store.js';
import type { MutableObject } from './resource-hooks.js';
import type { ResourceInfo } from './resource-info.js';
import type { RequestTarget } from './request-target.js';

/** readBody checks a body is an object with an object metadata, and returns a shallow copy to edit. */
export function readBody(body: unknown): MutableObject {
  if (!isPlainObject(body)) throw new AppError('BadRequest', 'the request body must be a JSON object');
  const metadata = body['metadata'] ?? {};
  if (!isPlainObject(metadata)) throw new AppError('BadRequest', 'metadata must be a JSON object');
  return { ...body, metadata: { ...metadata } };
}

/** fillTypeMeta sets apiVersion and kind when absent and refuses ones that name another type. */
export function fillTypeMeta(obj: MutableObject, info: ResourceInfo): void {
  const apiVersion = apiVersionOf(info.group, info.version);
  if (obj['apiVersion'] === undefined || obj['apiVersion'] === '') obj['apiVersion'] = apiVersion;
  else if (obj['apiVersion'] !== apiVersion) {
    throw new AppError('BadRequest', `the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${apiVersion})`);
  }
  if (obj['kind'] === undefined || obj['kind'] === '') obj['kind'] = info.kind;
  else if (obj['kind'] !== info.kind) {
    throw new AppError('BadRequest', `the kind in the data (${String(obj['kind'])}) does not match the expected kind (${info.kind})`);
  }
}

/** fillNamespace makes the body's namespace agree with the URL's. */
export function fillNamespace(obj: MutableObject, target: RequestTarget): void {
  const sent = obj.metadata['namespace'];
  if (!target.info.namespaced) {
    delete obj.metadata['namespace'];
    return;
  }
  if (target.namespace === undefined) throw new AppError('BadRequest', 'a namespaced object must be written under /namespaces/{namespace}/');
  if (sent !== undefined && sent !== '' && sent !== target.namespace) {
    throw new AppError('BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  }
  obj.metadata['namespace'] = target.namespace;
}

/** checkName makes sure a PUT or PATCH body names the object of its URL. */
export function checkName(obj: MutableObject, urlName: string): void {
  const sent = obj.metadata['name'];
  if (sent === undefined || sent === '') obj.metadata['name'] = urlName;
  else if (sent !== urlName) throw new AppError('BadRequest', `the name of the object (${String(sent)}) does not match the name on the URL (${urlName})`);
}

/**
 * validateMeta applies Kubernetes object-meta validation (422 Invalid with causes); old, the stored
 * object, adds the rules of an update. The depth bound and JSON types were checked by assertDecodes.
 */
export function validateMeta(obj: MutableObject, info: ResourceInfo, old?: KubeObject): void {
  const causes = validateObjectMeta(obj.metadata, { namespaced: info.namespaced, nameRule: info.nameRule });
  if (old !== undefined) causes.push(...validateObjectMetaUpdate(obj.metadata, old.metadata));
  if (causes.length === 0) return;
  const name = typeof obj.metadata['name'] === 'string' ? obj.metadata['name'] : String(obj.metadata['generateName'] ?? '');
  throw invalidError(info.kind, name, causes, info.group);
}

/** keyOf gives the store key of a named object of a target (which must have a concrete cluster). */
export function keyOf(target: RequestTarget, name: string): ObjectKey {
  return {
    cluster: concreteCluster(target),
    group: target.info.group,
    resource: target.info.resource,
    namespace: target.namespace ?? '',
    name,
  };
}

/** concreteCluster refuses `*` for anything but list and watch. */
export function concreteCluster(target: RequestTarget): string {
  if (target.cluster === undefined || target.where !== undefined) {
    throw new AppError('MethodNotAllowed', 'the wildcard cluster "*" only serves list and watch');
  }
  return target.cluster;
}

/** present shows a stored object at the version the request asked for (CRDs serve several). */
export function present(obj: KubeObject, info: ResourceInfo): KubeObject {
  const apiVersion = apiVersionOf(info.group, info.version);
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}
