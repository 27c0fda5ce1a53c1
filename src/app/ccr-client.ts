// The root controller's writes to a source, over its dynamic client: CCR metadata and status, the
// identity secrets and their namespace, and the Events `kubectl describe` shows for a CCR.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isAppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { CcrClient } from '../controllers/clustercachedresources/ccr-deps.js';
import type { DynamicClient } from '../kube/dynamic-client.js';

const SECRETS: GroupVersionResource = Object.freeze({ group: '', version: 'v1', resource: 'secrets' });
const NAMESPACES: GroupVersionResource = Object.freeze({ group: '', version: 'v1', resource: 'namespaces' });
const EVENTS: GroupVersionResource = Object.freeze({ group: '', version: 'v1', resource: 'events' });

/** EVENT_NAMESPACE holds the Events of cluster-scoped objects, as in Kubernetes. */
const EVENT_NAMESPACE = 'default';
/** COMPONENT names cachegate as the Events' source. */
const COMPONENT = 'cachegate';

/** ccrClient adapts the dynamic client to what the root controller writes; ccrGvr is the CCR resource. */
export function ccrClient(client: DynamicClient, ccrGvr: GroupVersionResource): CcrClient {
  return {
    async patchCcr(cluster, name, patch) {
      await client.patch(cluster, ccrGvr, undefined, name, patch, 'merge');
    },
    async patchCcrStatus(cluster, name, status) {
      await client.patch(cluster, ccrGvr, undefined, name, { status }, 'merge', 'status');
    },
    async getSecret(cluster, namespace, name) {
      try {
        return await client.get(cluster, SECRETS, namespace, name);
      } catch (err) {
        if (isAppError(err, 'NotFound')) return undefined;
        throw err;
      }
    },
    async createSecret(cluster, secret) {
      await client.create(cluster, SECRETS, secret.metadata.namespace, secret);
    },
    async ensureNamespace(cluster, name) {
      try {
        await client.create(cluster, NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      } catch (err) {
        if (!isAppError(err, 'AlreadyExists')) throw err;
      }
    },
    async recordEvent(cluster, ccr, event) {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      await client.create(cluster, EVENTS, EVENT_NAMESPACE, {
        apiVersion: 'v1',
        kind: 'Event',
        // Kubernetes names an Event after its object and a unique suffix.
        metadata: { name: `${ccr.name}.${randomBytes(8).toString('hex')}`, namespace: EVENT_NAMESPACE },
        involvedObject: { apiVersion: `${ccrGvr.group}/${ccrGvr.version}`, kind: 'ClusterCachedResource', name: ccr.name, uid: ccr.uid },
        type: event.type,
        reason: event.reason,
        message: event.message,
        source: { component: COMPONENT },
        reportingComponent: COMPONENT,
        reportingInstance: hostname(),
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      });
    },
  };
}
