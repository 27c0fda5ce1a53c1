// Discovery documents (/version, /api, /api/v1, /apis, /apis/{g}, /apis/{g}/{v}) built from a
// resource list. kubectl and client libraries learn every resource's scope, kind and verbs from
// them; kubectl's dispatcher picks its build from /version's gitVersion.

import { apiVersionOf } from '../apimachinery/gvr.js';
import type { ResourceInfo } from './resource-info.js';
import { VERBS_READ_ONLY, VERBS_READ_WRITE } from './resource-info.js';

type Doc = Record<string, unknown>;

/**
 * versionInfo is the /version document (version.Info), served at the root as kube-apiserver
 * serves it and under every mount of the API.
 */
export function versionInfo(gitVersion: string): Record<string, string> {
  const [major = '1', minor = '0'] = gitVersion.replace(/^v/, '').split('.');
  return {
    major, minor, gitVersion, gitCommit: 'cachegate', gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.23', compiler: 'gc', platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/**
 * apiVersions is the /api document, or undefined when no core resource is served (the cache API):
 * discovery clients take a missing /api for "no core group", but a v1 that /api names and that
 * lists nothing is an error to them (kubectl api-resources: "received empty response for: v1").
 */
export function apiVersions(resources: readonly ResourceInfo[]): Doc | undefined {
  if (!resources.some((r) => r.group === '')) return undefined;
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
}

/** apiGroupList is the /apis document: every non-core group with its versions. */
export function apiGroupList(resources: readonly ResourceInfo[]): Doc {
  const groups = [...new Set(resources.filter((r) => r.group !== '').map((r) => r.group))];
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => groupDoc(resources, g)) };
}

/** apiGroup is the /apis/{group} document, or undefined when nothing serves that group. */
export function apiGroup(resources: readonly ResourceInfo[], group: string): Doc | undefined {
  if (!resources.some((r) => r.group === group)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(resources, group) };
}

/** apiResourceList is the /api/v1 or /apis/{g}/{v} document, or undefined when nothing serves it. */
export function apiResourceList(resources: readonly ResourceInfo[], group: string, version: string): Doc | undefined {
  const served = resources.filter((r) => r.group === group && r.version === version);
  if (served.length === 0) return undefined;
  const entries: Doc[] = [];
  for (const r of served) {
    entries.push({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs ?? (r.readOnly ? VERBS_READ_ONLY : VERBS_READ_WRITE),
      ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories.length ? { categories: r.categories } : {}),
    });
    if (r.statusSubresource) {
      entries.push({ name: `${r.resource}/status`, singularName: '', namespaced: r.namespaced, kind: r.kind, verbs: ['get', 'patch', 'update'] });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources: entries };
}

function groupDoc(resources: readonly ResourceInfo[], group: string): Doc {
  const inGroup = resources.filter((r) => r.group === group);
  const versions = [...new Set(inGroup.map((r) => r.version))];
  const preferred = inGroup.find((r) => r.storageVersion)?.version ?? versions[0] ?? '';
  const versionDoc = (v: string): Doc => ({ groupVersion: `${group}/${v}`, version: v });
  return { name: group, versions: versions.map(versionDoc), preferredVersion: versionDoc(preferred) };
}
