// Which incarnation of a source we are talking to. A source that restarts with its state gone (an
// in-memory test server, a cluster rebuilt behind the same address) counts resourceVersions from
// the start again, so versions alone cannot tell it apart from the one we followed. Kubernetes
// has no server id, but by convention a cluster's identity is the UID of a namespace that can
// never be deleted (`default`): a new UID there means a new cluster.

import { isAppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { DynamicClient } from './dynamic-client.js';

const NAMESPACES: GroupVersionResource = Object.freeze({ group: '', version: 'v1', resource: 'namespaces' });

/** IDENTITY_NAMESPACE is the namespace whose UID identifies a cluster (kcp: of its default logical cluster). */
export const IDENTITY_NAMESPACE = 'default';

/**
 * sourceIdentity reads the identity of the client's source: the UID of the `default` namespace of
 * its default logical cluster. It rejects only when the source cannot be reached (the caller retries);
 * when the source answers but will not say (no such namespace, no permission), the identity is
 * unknown (undefined) and callers fall back to resourceVersions alone.
 */
export async function sourceIdentity(client: DynamicClient): Promise<string | undefined> {
  try {
    const namespace = await client.get(client.source.defaultCluster, NAMESPACES, undefined, IDENTITY_NAMESPACE);
    return typeof namespace.metadata.uid === 'string' && namespace.metadata.uid !== '' ? namespace.metadata.uid : undefined;
  } catch (err) {
    if (isAppError(err, 'ServiceUnavailable')) throw err;
    return undefined;
  }
}
