// The resources of each logical cluster: the built-ins everywhere, plus those its CRDs add.

import type { ResourceCatalog, ResourceInfo } from './resource-info.js';

/** ClusterCatalog is a ResourceCatalog whose per-cluster part is fed by CRD hooks. */
export class ClusterCatalog implements ResourceCatalog {
  readonly #builtins: readonly ResourceInfo[];
  /** cluster → CRD name → the resources (one per served version) that CRD adds. */
  readonly #fromCrds = new Map<string, Map<string, readonly ResourceInfo[]>>();

  constructor(builtins: readonly ResourceInfo[]) {
    this.#builtins = builtins;
  }

  /** register records (or replaces) the resources a CRD adds to a cluster. */
  register(cluster: string, crdName: string, infos: readonly ResourceInfo[]): void {
    let byCrd = this.#fromCrds.get(cluster);
    if (!byCrd) this.#fromCrds.set(cluster, (byCrd = new Map()));
    byCrd.set(crdName, infos);
  }

  /** unregister forgets what a CRD added to a cluster. */
  unregister(cluster: string, crdName: string): void {
    this.#fromCrds.get(cluster)?.delete(crdName);
  }

  resources(cluster: string | undefined): readonly ResourceInfo[] {
    const out = [...this.#builtins];
    const seen = new Set(out.map(keyOf));
    const tables = cluster === undefined ? [...this.#fromCrds.values()] : [this.#fromCrds.get(cluster)];
    for (const byCrd of tables) {
      for (const infos of byCrd?.values() ?? []) {
        for (const info of infos) {
          if (seen.has(keyOf(info))) continue;
          seen.add(keyOf(info));
          out.push(info);
        }
      }
    }
    return out;
  }

  find(cluster: string | undefined, group: string, version: string, resource: string): ResourceInfo | undefined {
    for (const info of this.#builtins) {
      if (info.group === group && info.version === version && info.resource === resource) return info;
    }
    const tables = cluster === undefined ? [...this.#fromCrds.values()] : [this.#fromCrds.get(cluster)];
    for (const byCrd of tables) {
      for (const infos of byCrd?.values() ?? []) {
        const hit = infos.find((i) => i.group === group && i.version === version && i.resource === resource);
        if (hit) return hit;
      }
    }
    return undefined;
  }
}

function keyOf(info: ResourceInfo): string {
  return `${info.group}/${info.version}/${info.resource}`;
}
