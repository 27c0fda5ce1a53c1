// A source (a `shard` in kcp terms) and the paths of its resources. A `kcp` source
// serves many logical clusters under `/clusters/<cluster>/...` (`*` = all of them) and names each
// object's cluster in the `kcp.io/cluster` annotation; a `kube` source is one plain cluster whose
// objects all belong to one configured logical-cluster name, so its paths carry no prefix.

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceConfig } from '../config/config.js';
import { AppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { LOGICAL_CLUSTER_ANNOTATION } from '../apimachinery/logical-cluster.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { SourceTransport } from './source-transport.js';

/** EMBEDDED_SOURCE_NAME is the name of the source cachegate serves itself. */
export const EMBEDDED_SOURCE_NAME = 'embedded';

/** SourceKind tells how logical clusters appear in a source's paths and objects. */
export type SourceKind = 'kube' | 'kcp';

/** SourceConnection is one connected source: its identity and its HTTP transport. */
export interface SourceConnection {
  /** name is the source's name, the `shard` of its objects. */
  readonly name: string;
  readonly kind: SourceKind;
  /** defaultCluster is a kube source's only logical cluster (config `cluster`, else the source name). */
  readonly defaultCluster: string;
  readonly transport: SourceTransport;
}

/** connectSource loads a source's kubeconfig; a missing or unusable file is an Invalid AppError. */
export function connectSource(config: SourceConfig): SourceConnection {
  let transport: SourceTransport;
  try {
    transport = SourceTransport.fromFile(config.kubeconfig, config.context);
  } catch (err) {
    const where = config.kubeconfig ?? 'the default kubeconfig';
    const why = err instanceof Error ? err.message : String(err);
    throw new AppError('Invalid', `source ${config.name}: cannot use kubeconfig ${where}: ${why}`, {}, { cause: err });
  }
  return Object.freeze({
    name: config.name,
    kind: config.kind,
    defaultCluster: config.cluster ?? (config.kind === 'kcp' ? 'root' : config.name),
    transport,
  });
}

/**
 * embeddedSource is the kcp-style source cachegate serves at baseUrl, reached over HTTP like any
 * other. bearerToken is the app's internal credential when auth is on.
 */
export function embeddedSource(baseUrl: string, bearerToken?: string): SourceConnection {
  return Object.freeze({
    name: EMBEDDED_SOURCE_NAME,
    kind: 'kcp',
    defaultCluster: 'root',
    transport: bearerToken === undefined ? SourceTransport.forServer(baseUrl) : transportWithToken(baseUrl, bearerToken),
  });
}

/**
 * transportWithToken builds a transport that sends a bearer token. SourceTransport takes
 * credentials only from a kubeconfig file, so one is written to a private temporary directory
 * (mode 0700, file 0600), loaded, and removed at once: the token then lives only in memory.
 * A `forServer(server, token)` in source-transport.ts would avoid the file.
 */
function transportWithToken(server: string, token: string): SourceTransport {
  const dir = mkdtempSync(join(tmpdir(), 'cachegate-internal-'));
  const file = join(dir, 'kubeconfig');
  try {
    chmodSync(dir, 0o700);
    const kubeconfig = {
      apiVersion: 'v1', kind: 'Config', 'current-context': 'source',
      clusters: [{ name: 'source', cluster: { server, 'insecure-skip-tls-verify': server.startsWith('http:') } }],
      users: [{ name: 'cachegate', user: { token } }],
      contexts: [{ name: 'source', context: { cluster: 'source', user: 'cachegate' } }],
    };
    writeFileSync(file, JSON.stringify(kubeconfig), { mode: 0o600 });
    return SourceTransport.fromFile(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * clusterPrefix is the path prefix of a logical cluster: `/clusters/<cluster|*>` on kcp sources,
 * nothing on kube sources (asking a kube source for another cluster is NotFound, not a silent
 * read of its only cluster).
 */
export function clusterPrefix(source: SourceConnection, cluster: string | undefined): string {
  if (source.kind === 'kcp') return `/clusters/${cluster === undefined ? '*' : encodeURIComponent(cluster)}`;
  if (cluster !== undefined && cluster !== source.defaultCluster) {
    throw new AppError('NotFound', `source ${source.name} serves only logical cluster "${source.defaultCluster}", not "${cluster}"`);
  }
  return '';
}

/** groupVersionPath is `/api/v1` for the core group and `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(gvr: Pick<GroupVersionResource, 'group' | 'version'>): string {
  return gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
}

/** resourcePath is the URL path of a collection, an object or an object's subresource in one source. */
export function resourcePath(
  source: SourceConnection, cluster: string | undefined, gvr: GroupVersionResource,
  namespace?: string, name?: string, subresource?: string,
): string {
  let path = clusterPrefix(source, cluster) + groupVersionPath(gvr);
  if (namespace !== undefined && namespace !== '') path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${gvr.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}

/** clusterOf gives the logical cluster of an object read from a source. */
export function clusterOf(source: SourceConnection, obj: KubeObject): string {
  if (source.kind === 'kube') return source.defaultCluster;
  return obj.metadata.annotations?.[LOGICAL_CLUSTER_ANNOTATION] ?? source.defaultCluster;
}
